import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { healthPlugin } from './index.ts';

// Blocks the event loop for `ms` (bounded: a busy wait on the clock).
function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('readiness answers 503 under event-loop pressure, without running the checks, and recovers after it', async () => {
  let runs = 0;
  const app = createKernel({ root: {}, logger: false }).use(healthPlugin, {
    maxEventLoopDelay: 150,
    checks: { db: () => void runs++ },
  });
  await app.ready();
  await sleep(120);
  assert.equal((await app.inject('/readyz')).statusCode, 200);
  assert.equal(runs, 1);

  blockFor(400);
  await sleep(15);
  const pressed = await app.inject('/readyz');
  assert.equal(pressed.statusCode, 503);
  const body = pressed.json() as { status: string; failing: string[]; eventLoopDelay: { ms: number; max: number } };
  assert.deepEqual([body.status, body.failing, body.eventLoopDelay.max], ['error', ['eventLoopDelay'], 150]);
  assert.ok(body.eventLoopDelay.ms >= 250 && body.eventLoopDelay.ms < 2000, `measured ${body.eventLoopDelay.ms} ms`);
  assert.equal(runs, 1, 'the checks did not run under pressure');
  assert.equal((await app.inject('/healthz')).statusCode, 200, 'liveness ignores the load');

  // Ready again once the loop keeps time (within a few sampling periods; a busy machine may take longer).
  let status = 0;
  for (let waited = 0; waited < 3000 && status !== 200; waited += 100) {
    await sleep(100);
    status = (await app.inject('/readyz')).statusCode;
  }
  assert.equal(status, 200, 'ready again once the loop keeps time');
  await app.close();
});

test('a probe that arrives while the loop is blocked is answered 503 once it is read', async () => {
  const app = createKernel({ root: {}, logger: false }).use(healthPlugin, { maxEventLoopDelay: 150 });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    await sleep(120);
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    await once(socket, 'connect');
    const reply = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
    });
    // The request is in the server's socket buffer while the loop is stuck.
    socket.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    blockFor(400);
    const text = await reply;
    assert.match(text, /^HTTP\/1\.1 503 /);
    assert.match(text, /"failing":\["eventLoopDelay"\]/);
  } finally {
    await app.close();
  }
});

test('maxEventLoopDelay: false never refuses for the loop', async () => {
  const app = createKernel({ root: {}, logger: false }).use(healthPlugin, { maxEventLoopDelay: false });
  await app.ready();
  blockFor(200);
  await sleep(15);
  assert.equal((await app.inject('/readyz')).statusCode, 200);
  await app.close();
});
