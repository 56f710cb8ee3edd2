import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { listening, withTimeout } from './harness.ts';

// Requests pipelined behind a response that closes the connection are dropped by Node before
// they get a socket; they must not stay counted as in flight (close() would then wait for its
// whole close_timeout).

const CLOSE_TIMEOUT_MS = 20_000;

class Root {
  ran: string[] = [];
  @expose() async index(): Promise<string> {
    this.ran.push('index');
    await sleep(100);
    response.headers['Connection'] = 'close';
    return 'closing';
  }
  @expose() fast(): string {
    this.ran.push('fast');
    return 'fast';
  }
}

test('requests pipelined behind a Connection: close response are not left in flight', async () => {
  const root = new Root();
  const app = createApp({ root, close_timeout: CLOSE_TIMEOUT_MS });
  const port = await listening(app);
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise((done) => socket.on('close', done));
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
  await withTimeout(closed, 'the connection closing after the first response');
  assert.equal(received.match(/HTTP\/1\.1 \d{3}/g)?.length, 1, received);
  assert.match(received, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nclosing$/);
  assert.deepEqual(root.ran, ['index', 'fast', 'fast']);
  // Nothing is in flight any more: close() returns at once, not after close_timeout.
  await withTimeout(app.close(), 'close() with nothing in flight', CLOSE_TIMEOUT_MS / 2);
});
