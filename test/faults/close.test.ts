import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { calls, makeApp } from '../security/app.ts';
import { assertNothingUncaught, assertPrototypesUnchanged, listening, rawExchange, withTimeout } from '../security/harness.ts';

// close() under load: requests in flight finish with their own answer, a request that arrives on
// an open connection while closing gets 503 with `Connection: close`, new connections are
// refused, and close() itself resolves.

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

function readAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => {});
  });
}

test('close() under load: in-flight requests finish, late ones get 503 + Connection: close, nothing hangs', async () => {
  const app = makeApp({ close_timeout: 4_000 });
  const port = await listening(app);

  // 60 requests in flight, each answering after 1 s; close() starts only once all 60 handlers run
  // (on a busy machine a request could otherwise still be on its way and rightly get a 503).
  const slowBefore = calls.get('faults.slow') ?? 0;
  const inflight = Array.from({ length: 60 }, (_, i) =>
    rawExchange(port, `GET /faults/slow?ms=1000&n=${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, { timeout: 8_000 }),
  );
  for (let waited = 0; (calls.get('faults.slow') ?? 0) - slowBefore < 60; waited += 10) {
    if (waited > 5_000) assert.fail('the 60 slow requests did not all reach their handler within 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
  // Ten connections that have started a request but not finished its headers: not idle, so
  // close() keeps them open; their requests complete while the kernel is closing.
  const late = await Promise.all(Array.from({ length: 10 }, () => openSocket(port)));
  const lateAnswers = late.map(readAnswer);
  for (const socket of late) socket.write('GET /child/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  await new Promise((r) => setTimeout(r, 100));

  const closing = app.close();
  await new Promise((r) => setTimeout(r, 20));
  for (const socket of late) socket.write('\r\n');

  // New connections are refused once the server stopped listening.
  await assert.rejects(rawExchange(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), /ECONNREFUSED/);

  for (const answer of await withTimeout(Promise.all(inflight), 'in-flight requests', 8_000)) {
    assert.equal(answer.status, 200);
    assert.equal(answer.body, 'slow done');
  }
  for (const text of await withTimeout(Promise.all(lateAnswers), 'late requests', 6_000)) {
    assert.match(text, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(text, /\r\nConnection: close\r\n/i);
    assert.doesNotMatch(text, /\bat .+:\d+:\d+|Error:/);
  }
  await withTimeout(closing, 'close()', 6_000);
  assertNothingUncaught('close under load');
  assertPrototypesUnchanged('close under load');
});

test('close() with a handler that never resolves ends after close_timeout and destroys the connection', async () => {
  const app = makeApp({ close_timeout: 200 });
  const port = await listening(app);
  const hung = rawExchange(port, 'GET /faults/hangs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n').then(
    (answer) => answer.status,
    (error: Error) => error.message,
  );
  await new Promise((r) => setTimeout(r, 50));
  await withTimeout(app.close(), 'close() past close_timeout', 3_000);
  // The connection was destroyed without an answer.
  assert.equal(await hung, 0);
  assertNothingUncaught('close with a hung handler');
});
