import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Kernel, type KernelConfig } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { RATE_LIMIT_ERRORS, rateLimitPlugin, rate_limit, type RateLimitOptions } from './index.ts';

class Account {
  logins = 0;
  @expose() index() {
    return 'home';
  }
  @rate_limit({ points: 2, duration: 30 }) @expose('json') login() {
    this.logins++;
    return { ok: true };
  }
  // The other order: the limit still applies.
  @expose('json') @rate_limit({ points: 1, duration: 10, name: 'reset-password' }) reset() {
    return { sent: true };
  }
}

function app(options?: RateLimitOptions, config: KernelConfig = {}): { kernel: Kernel; root: Account } {
  const root = new Account();
  return { kernel: createKernel({ root, logger: false, ...config }).use(dispatchPlugin).use(rateLimitPlugin, options), root };
}

test('app-wide: exactly `points` requests pass, then 429 with Retry-After, RateLimit-Policy and RateLimit, as JSON', async () => {
  const { kernel } = app({ points: 3, duration: 60 });
  const seen = [];
  for (let i = 0; i < 3; i++) {
    const res = await kernel.inject('/');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, 'home');
    assert.equal(res.headers['ratelimit-policy'], '"default";q=3;w=60');
    seen.push(res.headers['ratelimit']);
  }
  assert.deepEqual(seen, ['"default";r=2;t=60', '"default";r=1;t=60', '"default";r=0;t=60']);
  const refused = await kernel.inject({ url: '/', headers: { accept: 'application/json' } });
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.headers['retry-after'], '60');
  assert.equal(refused.headers['ratelimit-policy'], '"default";q=3;w=60');
  assert.equal(refused.headers['ratelimit'], '"default";r=0;t=60');
  assert.deepEqual(refused.json(), { code: 429, title: 'Too Many Requests', description: 'Too many requests: at most 3 every 60 s; retry in 60 s.' });
  await kernel.close();
});

test('the 429 is an HTML page for a browser, and a 404 carries the fields too', async () => {
  const { kernel } = app({ points: 1, duration: 5 });
  const missing = await kernel.inject('/nowhere');
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.headers['ratelimit'], '"default";r=0;t=5');
  const page = await kernel.inject({ url: '/', headers: { accept: 'text/html' } });
  assert.equal(page.statusCode, 429);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.body, /Too many requests: at most 1 every 5 s; retry in 5 s\./);
  await kernel.close();
});

test('clients are counted by address; forwarded addresses only from a trusted proxy', async () => {
  const direct = app({ points: 1, duration: 60 }).kernel;
  assert.equal((await direct.inject({ url: '/', remoteAddress: '198.51.100.1' })).statusCode, 200);
  assert.equal((await direct.inject({ url: '/', remoteAddress: '198.51.100.2' })).statusCode, 200);
  assert.equal((await direct.inject({ url: '/', remoteAddress: '198.51.100.1' })).statusCode, 429);
  // Without trust_proxy, X-Forwarded-For is not read: a client cannot pick its own key.
  assert.equal((await direct.inject({ url: '/', remoteAddress: '198.51.100.2', headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode, 429);
  await direct.close();

  const proxied = app({ points: 1, duration: 60 }, { trust_proxy: ['10.0.0.1'] }).kernel;
  const via = (client: string) => proxied.inject({ url: '/', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': client } });
  assert.equal((await via('203.0.113.1')).statusCode, 200);
  assert.equal((await via('203.0.113.2')).statusCode, 200);
  assert.equal((await via('203.0.113.1')).statusCode, 429);
  await proxied.close();
});

test('IPv6 clients count by /64: changing the interface id does not reset the count; IPv4-mapped is IPv4', async () => {
  const { kernel } = app({ points: 1, duration: 60 });
  assert.equal((await kernel.inject({ url: '/', remoteAddress: '2001:db8:1:2::a' })).statusCode, 200);
  assert.equal((await kernel.inject({ url: '/', remoteAddress: '2001:db8:1:2:ffff::b' })).statusCode, 429);
  assert.equal((await kernel.inject({ url: '/', remoteAddress: '2001:db8:1:3::a' })).statusCode, 200);
  // An IPv4-mapped address is its IPv4 client.
  assert.equal((await kernel.inject({ url: '/', remoteAddress: '198.51.100.7' })).statusCode, 200);
  assert.equal((await kernel.inject({ url: '/', remoteAddress: '::ffff:198.51.100.7' })).statusCode, 429);
  await kernel.close();
});

test('a key function chooses the client (an API key here)', async () => {
  const { kernel } = app({ points: 1, duration: 60, key: (request) => String(request.headers['x-api-key'] ?? 'anonymous') });
  assert.equal((await kernel.inject({ url: '/', headers: { 'x-api-key': 'a' } })).statusCode, 200);
  assert.equal((await kernel.inject({ url: '/', headers: { 'x-api-key': 'b' } })).statusCode, 200);
  assert.equal((await kernel.inject({ url: '/', headers: { 'x-api-key': 'a' } })).statusCode, 429);
  // A very long key is stored hashed, and still counted.
  const long = 'k'.repeat(5000);
  assert.equal((await kernel.inject({ url: '/', headers: { 'x-api-key': long } })).statusCode, 200);
  assert.equal((await kernel.inject({ url: '/', headers: { 'x-api-key': long } })).statusCode, 429);
  await kernel.close();
});

test('@rate_limit limits one handler before it runs; the others are untouched; both policies are listed', async () => {
  const { kernel, root } = app({ points: 100, duration: 60 });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await kernel.inject({ method: 'GET', url: '/login' })).statusCode);
  assert.deepEqual(statuses, [200, 200, 429]);
  assert.equal(root.logins, 2, 'the refused request never reached the handler');
  const refused = await kernel.inject('/login');
  assert.equal(refused.headers['retry-after'], '30');
  assert.equal(refused.headers['ratelimit-policy'], '"default";q=100;w=60, "login";q=2;w=30');
  assert.equal(refused.headers['ratelimit'], '"default";r=96;t=60, "login";r=0;t=30');
  const home = await kernel.inject('/');
  assert.equal(home.statusCode, 200);
  assert.equal(home.headers['ratelimit'], '"default";r=95;t=60');
  // Stacked under @expose, with its own policy name.
  assert.equal((await kernel.inject('/reset')).statusCode, 200);
  const again = await kernel.inject('/reset');
  assert.equal(again.statusCode, 429);
  assert.equal(again.headers['ratelimit-policy'], '"default";q=100;w=60, "reset-password";q=1;w=10');
  await kernel.close();
});

test('without an app-wide limit only decorated handlers are counted; each kernel has its own counters', async () => {
  const first = app().kernel;
  const plain = await first.inject('/');
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['ratelimit'], undefined);
  assert.equal((await first.inject('/reset')).statusCode, 200);
  assert.equal((await first.inject('/reset')).statusCode, 429);
  const second = app().kernel;
  assert.equal((await second.inject('/reset')).statusCode, 200);
  await first.close();
  await second.close();
});

test('the memory store is bounded: past maxKeys the least recently seen client is dropped', async () => {
  const { kernel } = app({ points: 1, duration: 60, maxKeys: 2, key: (request) => String(request.headers['x-client']) });
  const as = (client: string) => kernel.inject({ url: '/', headers: { 'x-client': client } }).then((res) => res.statusCode);
  assert.equal(await as('a'), 200);
  assert.equal(await as('b'), 200);
  assert.equal(await as('b'), 429); // b is now the most recent
  assert.equal(await as('c'), 200); // a third client: a (least recently seen) is dropped
  assert.equal(await as('b'), 429, 'b was kept');
  assert.equal(await as('a'), 200, 'a starts a fresh window');
  await kernel.close();
});

test('configuration mistakes fail at ready() with a coded error naming the option', async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ points: 10 }, /"duration" is missing/],
    [{ points: 0, duration: 60 }, /"points" must be a positive integer, not 0/],
    [{ points: 10, duration: 1.5 }, /"duration" must be a positive integer/],
    [{ points: 10, duration: 60, store: 'redis' }, /"store" must be 'memory' or a node-postgres Pool/],
    [{ points: 10, duration: 60, key: 'ip' }, /"key" must be a function/],
    [{ points: 10, duration: 60, tableName: 'x; DROP TABLE y' }, /"tableName" must be a plain SQL name/],
    [{ maxKeys: -1 }, /"maxKeys" must be a positive integer/],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(
      createKernel({ root: new Account(), logger: false }).use(rateLimitPlugin, options as RateLimitOptions).ready(),
      (error: Error & { code?: string }) => error.code === 'HICKORY_ERR_RATE_LIMIT_OPTION' && message.test(error.message),
    );
  }
});

test('@rate_limit refuses bad options and targets with HICKORY_ERR_RATE_LIMIT_DECORATOR', () => {
  const refused = (make: () => unknown, message: RegExp) =>
    assert.throws(make, (error: Error & { code?: string }) => error.code === 'HICKORY_ERR_RATE_LIMIT_DECORATOR' && message.test(error.message));
  refused(() => rate_limit({ points: 5 } as never), /option "duration" must be a positive integer/);
  refused(() => rate_limit({ points: 5, duration: 60, key: 'ip' } as never), /option "key" must be a function/);
  refused(() => rate_limit({ points: 5, duration: 60 })('login' as never), /was applied to string/);
  // A legacy (experimentalDecorators) call is named as such, by dispatch's shared check.
  assert.throws(() => (rate_limit({ points: 5, duration: 60 }) as unknown as (a: object, b: string, c: object) => void)({}, 'login', {}), /experimentalDecorators/);
});

test('the error table lists every code this package throws', () => {
  assert.deepEqual(Object.keys(RATE_LIMIT_ERRORS).sort(), ['HICKORY_ERR_RATE_LIMIT_DECORATOR', 'HICKORY_ERR_RATE_LIMIT_OPTION', 'HICKORY_ERR_RATE_LIMIT_STORE']);
});

test('an option name it does not know fails ready() with HICKORY_ERR_PLUGIN_OPTION, listing the known ones', async () => {
  await assert.rejects(
    createKernel({ root: new Account(), logger: false }).use(rateLimitPlugin, { points: 1, duration: 1, bogus: 1 } as unknown as RateLimitOptions).ready(),
    (error: Error & { code?: string }) => error.code === 'HICKORY_ERR_PLUGIN_OPTION' && /has no option "bogus" \(its options are /.test(error.message),
  );
});
