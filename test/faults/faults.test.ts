import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, type Logger } from '@hickory/core';
import { makeApp } from '../security/app.ts';
import { assertHealthy, assertNoLeak, injectCase, listening, rawExchange, requestBytes, type Answer, type Case } from '../security/harness.ts';

// Faulty handlers: each one gets a generic 500 (503 for a handler past `handler_timeout`) with
// nothing internal in the body, the details go to the log, and other requests keep succeeding.

function capturingLogger(): Logger & { errors: unknown[][]; warnings: unknown[][] } {
  const errors: unknown[][] = [];
  const warnings: unknown[][] = [];
  return { errors, warnings, info() {}, warn: (...args: unknown[]) => void warnings.push(args), error: (...args: unknown[]) => void errors.push(args) };
}

const FAULTS: Array<[string, string, number]> = [
  ['a handler that throws', '/faults/throws', 500],
  ['a handler that rejects', '/faults/rejects', 500],
  ['a handler that throws a non-Error', '/faults/nonerror', 500],
  ['a template that throws', '/faults/template', 500],
  ['a _lookup that throws', '/items/boom', 500],
  ['a handler that never resolves (handler_timeout)', '/faults/hangs', 503],
];

async function both(app: ReturnType<typeof makeApp>, port: number, c: Case): Promise<Answer[]> {
  return [await injectCase(app, c), await rawExchange(port, requestBytes(c))];
}

test('faulty handlers → generic 500/503 both ways, logged, while other requests succeed', async (t) => {
  const logger = capturingLogger();
  const app = makeApp({ logger, handler_timeout: 300 });
  const port = await listening(app);
  try {
    for (const [what, target, status] of FAULTS) {
      await t.test(what, async () => {
        const logged = logger.errors.length;
        for (const accept of ['text/html', 'application/json, text/html;q=0.5']) {
          const answers = await both(app, port, { name: what, target, headers: { accept }, status: [status] });
          for (const answer of answers) {
            assert.equal(answer.status, status, answer.body);
            assertNoLeak(answer, what);
            if (accept.startsWith('application/json')) {
              assert.deepEqual(JSON.parse(answer.body), {
                code: status,
                title: status === 500 ? 'Internal Server Error' : 'Service Unavailable',
                description: 'The server could not complete the request.',
              });
            }
          }
        }
        if (status === 500) assert.ok(logger.errors.length > logged, 'the error was logged');
        else assert.ok(logger.warnings.some((w) => String(w[0]).includes('handler_timeout')), 'the timeout was logged');
        await assertHealthy(app, port, what);
      });
    }

    await t.test('faults interleaved with normal requests over sockets', async () => {
      const normal = ['/', '/echo?a=1', '/books/', '/items/7/', '/page', '/child/info', '/hello.txt'];
      const requests: Array<Promise<[string, Answer]>> = [];
      for (let round = 0; round < 5; round++) {
        for (const [, target] of FAULTS) requests.push(rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`).then((a) => [target, a]));
        for (const target of normal) requests.push(rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`).then((a) => [target, a]));
      }
      for (const [target, answer] of await Promise.all(requests)) {
        const expected = FAULTS.find(([, path]) => path === target)?.[2] ?? 200;
        assert.equal(answer.status, expected, `${target}: ${answer.body.slice(0, 100)}`);
      }
      await assertHealthy(app, port, 'interleaved');
    });
  } finally {
    await app.close();
  }
});

test('handler_timeout: a handler settling in time is answered; the timer does not outlive it', async () => {
  const app = makeApp({ handler_timeout: 500 });
  try {
    const res = await app.inject({ method: 'GET', url: '/faults/slow?ms=20' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, 'slow done');
    // A rejection inside the limit is that rejection (500), not a 503.
    assert.equal((await app.inject({ method: 'GET', url: '/faults/rejects' })).statusCode, 500);
  } finally {
    await app.close();
  }
});

test('handler_timeout on the bare kernel: 503 for a never-settling handler, a bad value fails ready()', async () => {
  const plugin = definePlugin({
    name: 'test-hang',
    apply(kernel) {
      kernel.hooks.route.tap('test-hang', (request) => ({
        target: 'hang',
        handle: () => (request.path === '/hang' ? new Promise(() => {}) : Promise.resolve('done')),
      }));
    },
  });
  const app = createKernel({ logger: false, handler_timeout: 50 }).use(plugin);
  try {
    const hung = await app.inject({ method: 'GET', url: '/hang', headers: { accept: 'application/json' } });
    assert.equal(hung.statusCode, 503);
    assert.deepEqual(hung.json(), { code: 503, title: 'Service Unavailable', description: 'The server could not complete the request.' });
    assert.equal((await app.inject({ method: 'GET', url: '/fast' })).body, 'done');
  } finally {
    await app.close();
  }
  const bad = createKernel({ logger: false, handler_timeout: -5 });
  await assert.rejects(bad.ready(), (e: Error & { code: string }) => e.code === 'HICKORY_ERR_CONFIG_VALUE' && /handler_timeout/.test(e.message));
  await bad.close();
});
