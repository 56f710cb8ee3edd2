import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, HTTPRedirect, redirect, type Request } from './index.ts';
import { capture, routes } from './fixtures/harness.ts';

test('redirect() answers 302 with a relative Location and an empty body', async () => {
  const app = createKernel({ logger: false }).use(routes({ '/old': () => redirect('/new?x=1'), '/rel': () => redirect('next') }));
  let res = await app.inject('/old');
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, '/new?x=1');
  assert.equal(res.headers['content-length'], '0');
  assert.equal(res.body, '');
  res = await app.inject({ url: '/rel', headers: { host: 'evil.example' } });
  assert.equal(res.headers.location, 'next');
  await app.close();
});

test('redirect() with code and headers', async () => {
  const app = createKernel({ logger: false }).use(
    routes({
      '/moved': () => redirect('/here', { code: 301, headers: { 'Cache-Control': 'max-age=60' } }),
      '/see': () => redirect('/other', { code: 303 }),
      '/temp': () => redirect('/t', { code: 307 }),
      '/perm': () => redirect('/p', { code: 308 }),
      '/bad': () => redirect('/x', { code: 200 }),
    }),
  );
  let res = await app.inject('/moved');
  assert.equal(res.statusCode, 301);
  assert.equal(res.headers.location, '/here');
  assert.equal(res.headers['cache-control'], 'max-age=60');
  for (const [path, code] of [['/see', 303], ['/temp', 307], ['/perm', 308]] as const) {
    assert.equal((await app.inject(path)).statusCode, code);
  }
  assert.equal((await app.inject('/bad')).statusCode, 500);
  await app.close();
});

test('redirect(undefined, { add_slash: true }) builds the Location from the path and keeps the query', async () => {
  const app = createKernel({ logger: false }).use(
    routes({ '/catalog': () => redirect(undefined, { add_slash: true }), '/catalog/': () => redirect(undefined, { add_slash: true }), '//evil.com': () => redirect(undefined, { add_slash: true }) }),
  );
  let res = await app.inject({ url: '/catalog?page=2&q=a%20b', headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' } });
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, '/catalog/?page=2&q=a%20b');
  res = await app.inject('/catalog/');
  assert.equal(res.headers.location, '/catalog/');
  res = await app.inject('//evil.com');
  assert.equal(res.headers.location, '/evil.com/');
  assert.throws(() => redirect(undefined, { add_slash: true }), { code: 'HICKORY_ERR_OUTSIDE_REQUEST' });
  await app.close();
});

test('redirect(location, { add_slash: true }) adds the slash to the location given (Pecan)', async () => {
  const app = createKernel({ logger: false }).use(
    routes({
      '/a': () => redirect('/sub', { add_slash: true }),
      '/b': () => redirect('/sub/', { add_slash: true }),
      '/c': () => redirect('/sub?x=1#top', { add_slash: true }),
      '/d': () => redirect('sub//', { add_slash: true }),
    }),
  );
  const expected = { '/a': '/sub/', '/b': '/sub/', '/c': '/sub/?x=1#top', '/d': 'sub/' };
  for (const [path, location] of Object.entries(expected)) {
    const res = await app.inject(path);
    assert.equal(res.statusCode, 302, path);
    assert.equal(res.headers.location, location, path);
  }
  await app.close();
});

test('a location starting with // or /\\ never leaves the site', () => {
  for (const [input, expected] of [['//evil.com/x', '/evil.com/x'], ['/\\evil.com', '/evil.com'], ['\\\\evil.com', '/evil.com'], ['/ok', '/ok']]) {
    assert.throws(() => redirect(input), (e: HTTPRedirect) => e instanceof HTTPRedirect && e.location === expected && e.headers?.Location === expected);
  }
});

test('CR/LF can never reach a header: a redirect with CR/LF is a 500 without Location', async () => {
  const logger = capture();
  const app = createKernel({ logger }).use(
    routes({
      '/crlf': () => redirect('/next\r\nSet-Cookie: evil=1'),
      '/lf': () => redirect('/next\nX: 1'),
      '/header': () => redirect('/next', { headers: { 'X-A': 'a\r\nSet-Cookie: evil=1' } }),
      '/internal': () => redirect('/x\r\n', { internal: true }),
    }),
  );
  const { url } = await app.listen({ port: 0 });
  for (const path of ['/crlf', '/lf', '/header', '/internal']) {
    const res = await fetch(url + path, { redirect: 'manual' });
    assert.equal(res.status, 500, path);
    assert.equal(res.headers.get('location'), null);
    assert.deepEqual(res.headers.getSetCookie(), []);
  }
  assert.throws(() => redirect('/a\0b'), { code: 'HICKORY_ERR_REDIRECT' });
  assert.throws(() => redirect(''), { code: 'HICKORY_ERR_REDIRECT' });
  await app.close();
});

test('an internal redirect re-dispatches in the same request and keeps request.context', async () => {
  const seen: string[] = [];
  const app = createKernel({ logger: false }).use(
    routes({
      '/start': (req, res) => {
        req.context.trail = ['start'];
        res.headers['X-From-Start'] = '1';
        return redirect('/middle?step=2', { internal: true });
      },
      '/middle': (req) => {
        (req.context.trail as string[]).push(`middle:${req.GET.step as string}`);
        return redirect('/end', { internal: true });
      },
      '/end': (req) => {
        seen.push(req.url);
        return { trail: [...(req.context.trail as string[]), 'end'], path: req.path, step: req.GET.step };
      },
    }),
  );
  const res = await app.inject('/start?step=1');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers.location, undefined);
  assert.equal(res.headers['x-from-start'], '1');
  assert.deepEqual(res.json(), { trail: ['start', 'middle:2', 'end'], path: '/end', step: '2' });
  assert.deepEqual(seen, ['/end?step=2']);
  await app.close();
});

test('an internal redirect loop → 500 with a logged explanation', async () => {
  const logger = capture();
  const app = createKernel({ logger }).use(
    routes({
      '/a': () => redirect('/b', { internal: true }),
      '/b': () => redirect('/a', { internal: true }),
      '/self': () => redirect('/self', { internal: true }),
      '/grow': (req) => redirect(`/grow?n=${Number(req.GET.n ?? 0) + 1}`, { internal: true }),
      '/relative': () => redirect('elsewhere', { internal: true }),
    }),
  );
  for (const path of ['/a', '/self', '/grow']) {
    const res = await app.inject({ url: path, headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 500, path);
    assert.deepEqual(res.json(), { code: 500, title: 'Internal Server Error', description: 'The server could not complete the request.' });
  }
  const log = logger.text();
  assert.match(log, /Internal redirect loop: \/a → \/b → \/a/);
  assert.match(log, /Internal redirect loop: \/self → \/self/);
  assert.match(log, /Internal redirect loop: \/grow → \/grow\?n=1 → .* → \/grow\?n=11/);
  assert.equal((await app.inject('/relative')).statusCode, 500);
  assert.match(logger.text(), /an internal redirect needs a path starting with "\/"/);
  await app.close();
});

// Last in this file: once an app runs with use_context_locals: false, the process remembers it
// (the importable request then names the option), which the test above must not see.
test('with use_context_locals: false, add_slash without a location completes the path of the request passed', async () => {
  const logger = capture();
  const app = createKernel({ logger, use_context_locals: false }).use(
    routes({
      '/catalog': (request) => redirect(undefined, { add_slash: true, request }),
      '/forgot': () => redirect(undefined, { add_slash: true }),
      '/fake': () => redirect(undefined, { add_slash: true, request: { path: '/x', query_string: '' } as unknown as Request }),
    }),
  );
  const res = await app.inject('/catalog?page=2&q=a%20b');
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, '/catalog/?page=2&q=a%20b');
  assert.equal(res.body, '');
  for (const path of ['/forgot', '/fake']) assert.equal((await app.inject(path)).statusCode, 500, path);
  const errors = logger.lines.filter((l) => l.level === 'error').map((l) => (l.details[0] as Error).message);
  assert.deepEqual(errors, [
    'Invalid redirect: add_slash without a location needs the request, and with use_context_locals: false there is no current one: pass the request the handler received, redirect(undefined, { add_slash: true, request }).',
    'Invalid redirect: the `request` option must be the Request the handler received.',
  ]);
  await app.close();
});
