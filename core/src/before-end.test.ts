import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKernel, HTTPError, Response } from './index.ts';
import { Ending } from './before-end.ts';
import { SILENT_LOG } from './pino-like.ts';
import { capture, handle, routes } from './fixtures/harness.ts';

test('Ending runs its callbacks once, the last added first, each after the previous one settled', async () => {
  const calls: string[] = [];
  const ending = new Ending(() => SILENT_LOG);
  ending.add(async (outcome) => {
    await sleep(5);
    calls.push(`first ${outcome.ok} ${outcome.status}`);
  });
  ending.add((outcome) => void calls.push(`second ${outcome.ok} ${outcome.status}`));
  const [once, twice] = await Promise.all([ending.run({ ok: true, status: 201 }), ending.run({ ok: false, status: 500 })]);
  assert.deepEqual([once, twice], [false, false]);
  assert.deepEqual(calls, ['second true 201', 'first true 201']);
  assert.equal(ending.started, true);
});

test('Ending: once a callback throws, it says so and the callbacks after it are told ok: false', async () => {
  const calls: string[] = [];
  const ending = new Ending(() => SILENT_LOG);
  ending.add((outcome) => void calls.push(`released ${outcome.ok}`));
  ending.add(() => {
    throw new Error('commit failed');
  });
  assert.equal(await ending.run({ ok: true, status: 200 }), true);
  assert.deepEqual(calls, ['released false']);
});

test('request.beforeEnd: told the outcome before the response is written; ok only for a success', async () => {
  const told: string[] = [];
  const app = createKernel({ logger: false }).use(
    routes({
      '/ok': (request) => {
        request.beforeEnd(({ ok, status }) => void told.push(`ok ${ok} ${status}`));
        return 'fine';
      },
      '/moved': (request, response) => {
        request.beforeEnd(({ ok, status }) => void told.push(`moved ${ok} ${status}`));
        response.status = 303;
        response.headerMap.set('Location', '/ok');
        return '';
      },
      '/refused': (request) => {
        request.beforeEnd(({ ok, status }) => void told.push(`refused ${ok} ${status}`));
        throw new HTTPError(409);
      },
      '/broken': (request) => {
        request.beforeEnd(({ ok, status }) => void told.push(`broken ${ok} ${status}`));
        throw new Error('bug');
      },
    }),
  );
  assert.equal((await app.inject('/ok')).statusCode, 200);
  assert.equal((await app.inject('/moved')).statusCode, 303);
  assert.equal((await app.inject('/refused')).statusCode, 409);
  assert.equal((await app.inject('/broken')).statusCode, 500);
  assert.deepEqual(told, ['ok true 200', 'moved true 303', 'refused false 409', 'broken false 500']);
  await app.close();
});

test('a beforeEnd callback that throws makes the response a plain 500, without the headers of the one it replaces', async () => {
  const logger = capture();
  const app = createKernel({ logger }).use(
    handle((request, response) => {
      request.beforeEnd(() => {
        throw new Error('commit failed');
      });
      response.set_cookie('session', 'new');
      return new Response({ status: 201, body: 'created' });
    }),
  );
  const answer = await app.inject({ url: '/', headers: { accept: 'application/json' } });
  assert.equal(answer.statusCode, 500);
  assert.equal(answer.headers['set-cookie'], undefined);
  assert.deepEqual(answer.json(), { code: 500, title: 'Internal Server Error', description: 'The server could not complete the request.' });
  assert.match(logger.text(), /a beforeEnd callback failed: the response is an error/);
  await app.close();
});

test('beforeEnd once the response was decided throws, naming the request, whether or not it had callbacks', async () => {
  for (const earlier of [false, true]) {
    let refused: unknown;
    const app = createKernel({ logger: false, handler_timeout: 50 }).use(
      handle(async (request) => {
        if (earlier) request.beforeEnd(() => undefined);
        await sleep(120);
        try {
          request.beforeEnd(() => undefined);
        } catch (error) {
          refused = error;
        }
        return 'late';
      }),
    );
    assert.equal((await app.inject('/slow')).statusCode, 503);
    await sleep(150);
    assert.match(String(refused), /request\.beforeEnd\(\) was called for GET \/slow after its response was decided/, `earlier callback: ${earlier}`);
    await app.close();
  }
});
