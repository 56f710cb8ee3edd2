import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { listening, withTimeout } from './harness.ts';

// Requests pipelined behind a response that closes the connection are dropped by Node before
// they get a socket: their handlers must not run (issue #29: their responses could never reach
// the client), and they must not stay counted as in flight (close() would then wait for its whole
// close_timeout). Pipelined requests that are answered run one after the other, in order.

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
  @expose() async slow(): Promise<string> {
    this.ran.push('slow started');
    await sleep(50);
    this.ran.push('slow ended');
    return 'slow';
  }
  @expose() async lingering(): Promise<string> {
    this.ran.push('lingering');
    await sleep(100);
    return 'lingering';
  }
}

/** Writes `bytes` on one connection and collects everything until the server closes it. */
async function exchange(port: number, bytes: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise((done) => socket.on('close', done));
  socket.write(bytes);
  await withTimeout(closed, 'the connection closing');
  return received;
}

test('requests pipelined behind a Connection: close response never run and are not left in flight', async () => {
  const root = new Root();
  const app = createApp({ root, close_timeout: CLOSE_TIMEOUT_MS, logger: false });
  const port = await listening(app);
  let closed = false;
  try {
    const received = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(received.match(/HTTP\/1\.1 \d{3}/g)?.length, 1, received);
    assert.match(received, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nclosing$/);
    await sleep(50);
    assert.deepEqual(root.ran, ['index']);
    // Nothing is in flight any more: close() returns at once, not after close_timeout.
    await withTimeout(app.close(), 'close() with nothing in flight', CLOSE_TIMEOUT_MS / 2);
    closed = true;
  } finally {
    if (!closed) await app.close();
  }
});

test('pipelined requests that are answered run in order, each after the response before it', async () => {
  const root = new Root();
  const app = createApp({ root, logger: false });
  const port = await listening(app);
  try {
    const received = await exchange(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.deepEqual(received.match(/\r\n\r\n(slow|fast)/g), ['\r\n\r\nslow', '\r\n\r\nfast', '\r\n\r\nfast']);
    assert.deepEqual(root.ran, ['slow started', 'slow ended', 'fast', 'fast']);
  } finally {
    await app.close();
  }
});

test('requests pipelined behind the last response of a closing app never run', async () => {
  const root = new Root();
  const app = createApp({ root, close_timeout: CLOSE_TIMEOUT_MS, logger: false });
  const port = await listening(app);
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise((done) => socket.on('close', done));
  socket.write('GET /lingering HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
  await sleep(30); // the first handler is running
  const closing = app.close();
  await withTimeout(closed, 'the connection closing');
  await withTimeout(closing, 'close()', CLOSE_TIMEOUT_MS / 2);
  assert.deepEqual(root.ran, ['lingering']);
  assert.match(received, /^HTTP\/1\.1 200 OK\r\n[\s\S]*connection: close[\s\S]*\r\n\r\nlingering$/i);
});

test('behind a synchronous answer that closes the connection, pipelined requests never run; behind one that keeps it, they run', async () => {
  const ran: string[] = [];
  class Sync {
    @expose() bye(): string {
      ran.push('bye');
      response.headers['Connection'] = 'close';
      return 'bye';
    }
    @expose() hi(): string {
      ran.push('hi');
      return 'hi';
    }
  }
  const app = createApp({ root: new Sync(), logger: false });
  const port = await listening(app);
  try {
    const kept = await exchange(port, 'GET /hi HTTP/1.1\r\nHost: x\r\n\r\nGET /hi HTTP/1.1\r\nHost: x\r\n\r\nGET /bye HTTP/1.1\r\nHost: x\r\n\r\nGET /hi HTTP/1.1\r\nHost: x\r\n\r\nGET /hi HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.deepEqual(kept.match(/\r\n\r\n(hi|bye)/g), ['\r\n\r\nhi', '\r\n\r\nhi', '\r\n\r\nbye']);
    await sleep(20);
    assert.deepEqual(ran, ['hi', 'hi', 'bye']);
  } finally {
    await app.close();
  }
});
