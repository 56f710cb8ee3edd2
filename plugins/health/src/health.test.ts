import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { createKernel, definePlugin, type Logger } from '@hickory/core';
import { HEALTH_ERRORS, healthPlugin, type HealthOptions } from './index.ts';

// A plugin used BEFORE healthPlugin, whose taps record what ran: health's tap runs first anyway.
function spyPlugin(seen: string[]) {
  return definePlugin({
    name: 'spy',
    apply(kernel) {
      kernel.hooks.beforeRoute.tap('spy', (request) => void seen.push(`beforeRoute ${request.path}`));
      kernel.hooks.route.tap('spy', (request) => {
        seen.push(`route ${request.path}`);
        return { target: 'root', handle: () => 'routed' };
      });
    },
  });
}

function app(options?: HealthOptions, logger: Logger | false = false) {
  const seen: string[] = [];
  const kernel = createKernel({ root: {}, logger }).use(spyPlugin(seen)).use(healthPlugin, options);
  return { kernel, seen };
}

test('liveness: 200 {"status":"ok"} at once, no-store, before any other tap or routing', async () => {
  const { kernel, seen } = app();
  const res = await kernel.inject('/healthz');
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '{"status":"ok"}');
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(seen, [], 'the spy tapped beforeRoute first, yet never ran');
  const other = await kernel.inject('/books');
  assert.equal(other.body, 'routed');
  assert.deepEqual(seen, ['beforeRoute /books', 'route /books']);
  await kernel.close();
});

test('readiness: checks run concurrently; all pass → 200 with each check', async () => {
  const started: number[] = [];
  const check = async () => {
    started.push(performance.now());
    await sleep(100);
    return { connections: 3 };
  };
  const { kernel, seen } = app({ checks: { db: check, cache: check, sync: () => true } });
  const began = performance.now();
  const res = await kernel.inject('/readyz');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok', checks: { db: { status: 'ok' }, cache: { status: 'ok' }, sync: { status: 'ok' } } });
  assert.ok(performance.now() - began < 190, 'two 100 ms checks ran side by side');
  assert.deepEqual(seen, []);
  await kernel.close();
});

test('readiness: a check that throws, rejects, returns false or times out → 503 naming it, its message only', async () => {
  const logged: string[] = [];
  const logger: Logger = { info: (message) => void logged.push(message), warn: (message) => void logged.push(message), error() {} };
  let dbDown = true;
  const secretError = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { connectionString: 'postgres://admin:hunter2@db' });
  const { kernel } = app(
    {
      timeout: 50,
      checks: {
        db: () => (dbDown ? Promise.reject(secretError) : 'up'),
        queue: () => {
          throw new Error('queue\nunreachable');
        },
        flag: () => false,
        slow: () => new Promise(() => {}),
        fine: () => undefined,
      },
    },
    logger,
  );
  const res = await kernel.inject('/readyz');
  assert.equal(res.statusCode, 503);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(res.json(), {
    status: 'error',
    failing: ['db', 'queue', 'flag', 'slow'],
    checks: {
      db: { status: 'error', error: 'connect ECONNREFUSED 10.0.0.5:5432' },
      queue: { status: 'error', error: 'queue unreachable' },
      flag: { status: 'error', error: 'returned false' },
      slow: { status: 'timeout', error: 'no answer within 50 ms' },
      fine: { status: 'ok' },
    },
  });
  assert.doesNotMatch(res.body, /hunter2|at runChecks|stack/);
  // Logged once when a check starts failing, once when it passes again; not on every probe.
  await kernel.inject('/readyz');
  assert.equal(logged.filter((line) => line.includes('"db" fails')).length, 1);
  dbDown = false;
  const after = await kernel.inject('/readyz');
  assert.deepEqual(after.json().failing, ['queue', 'flag', 'slow']);
  assert.deepEqual(logged.filter((line) => line.includes('"db"')), ['health: readiness check "db" fails (connect ECONNREFUSED 10.0.0.5:5432)', 'health: readiness check "db" passes again']);
  await kernel.close();
});

test('readiness requests that arrive together share one run of the checks', async () => {
  let runs = 0;
  const { kernel } = app({
    checks: {
      db: async () => {
        runs++;
        await sleep(50);
      },
    },
  });
  const answers = await Promise.all(Array.from({ length: 20 }, () => kernel.inject('/readyz')));
  assert.ok(answers.every((res) => res.statusCode === 200));
  assert.equal(runs, 1);
  await kernel.inject('/readyz');
  assert.equal(runs, 2, 'a later request runs them again');
  await kernel.close();
});

test('readiness answers 503 while the kernel is closing; liveness is not refused by health itself', async () => {
  const { kernel } = app({ checks: { db: () => sleep(150) } });
  await kernel.ready();
  const pending = kernel.inject('/readyz');
  await sleep(30);
  const closed = kernel.close();
  const res = await pending;
  assert.equal(res.statusCode, 503);
  assert.deepEqual(res.json(), { status: 'error', failing: ['closing'] });
  await closed;
  // Once closed, the kernel itself refuses every new request (Connection: close).
  assert.equal((await kernel.inject('/readyz')).statusCode, 503);
});

test('other methods on the health paths → 405 with Allow; HEAD answers the headers', async () => {
  const { kernel } = app();
  const post = await kernel.inject({ method: 'POST', url: '/readyz' });
  assert.equal(post.statusCode, 405);
  assert.equal(post.headers['allow'], 'GET, HEAD');
  const head = await kernel.inject({ method: 'HEAD', url: '/healthz' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
  await kernel.close();
});

test('the paths can be moved', async () => {
  const { kernel } = app({ live: '/-/live', ready: '/-/ready' });
  assert.equal((await kernel.inject('/-/live')).statusCode, 200);
  assert.equal((await kernel.inject('/-/ready')).statusCode, 200);
  assert.equal((await kernel.inject('/healthz')).body, 'routed');
  await kernel.close();
});

test('configuration mistakes fail at ready() with HICKORY_ERR_HEALTH_OPTION naming the option', async () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ live: 'healthz' }, /"live" must be a path such as "\/healthz"/],
    [{ live: '/h', ready: '/h' }, /"ready" must differ from live/],
    [{ checks: { db: 'SELECT 1' } }, /"checks.db" must be a function, not string/],
    [{ checks: { closing: () => true } }, /"checks.closing" uses a name readiness answers keep/],
    [{ timeout: 0 }, /"timeout" must be a positive number of milliseconds, not 0/],
    [{ maxEventLoopDelay: -5 }, /"maxEventLoopDelay" must be a positive number of milliseconds or false/],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(
      createKernel({ root: {}, logger: false }).use(healthPlugin, options as HealthOptions).ready(),
      (error: Error & { code?: string }) => error.code === 'HICKORY_ERR_HEALTH_OPTION' && message.test(error.message),
    );
  }
  assert.deepEqual(Object.keys(HEALTH_ERRORS), ['HICKORY_ERR_HEALTH_OPTION']);
});

test('an option name it does not know fails ready() with HICKORY_ERR_PLUGIN_OPTION, listing the known ones', async () => {
  await assert.rejects(
    createKernel({ root: {}, logger: false }).use(healthPlugin, { bogus: 1 } as unknown as HealthOptions).ready(),
    (error: Error & { code?: string }) => error.code === 'HICKORY_ERR_PLUGIN_OPTION' && /has no option "bogus" \(its options are /.test(error.message),
  );
});
