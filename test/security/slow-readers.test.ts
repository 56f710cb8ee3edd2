import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeApp } from './app.ts';
import { assertHealthy, listening } from './harness.ts';

// Clients that ask for a large download and never read it: without send_timeout they held their
// connection (and the body's source) for ever, whatever the other timeouts said.

const SEND_TIMEOUT_MS = 600;
const CLIENTS = 20;

function askAndNeverRead(port: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.write('GET /big?size=64 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  socket.pause(); // reads nothing: the server's writes stall once the socket buffers are full
  socket.on('error', () => {});
  return socket;
}

// A paused client cannot see its connection close: once resumed, it must end short of the body.
function drainToEnd(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.once('close', () => resolve(received));
    socket.resume();
  });
}

const connections = (server: Server) => new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

test(`${CLIENTS} clients reading nothing of a 64 MiB download are dropped after send_timeout`, async () => {
  const warnings: string[] = [];
  const app = makeApp({ send_timeout: SEND_TIMEOUT_MS, logger: { info() {}, warn: (m: string) => warnings.push(m), error() {} } });
  const { server, url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(url).port);
  const started = Date.now();
  const clients = Array.from({ length: CLIENTS }, () => askAndNeverRead(port));
  try {
    const deadline = started + 15_000;
    while (warnings.length < CLIENTS && Date.now() < deadline) await sleep(50);
    const elapsed = Date.now() - started;
    assert.equal(warnings.length, CLIENTS, `${warnings.length} of ${CLIENTS} dropped within ${elapsed} ms`);
    assert.ok(elapsed >= SEND_TIMEOUT_MS, `dropped after ${elapsed} ms, before send_timeout`);
    for (const warning of warnings) assert.equal(warning, `GET /big: the client took nothing for send_timeout (${SEND_TIMEOUT_MS} ms); the connection is closed`);
    assert.equal(await connections(server), 0, 'the server holds no connection of theirs');
    const received = await Promise.all(clients.map(drainToEnd));
    for (const bytes of received) assert.ok(bytes < 64 * 1024 * 1024, `a dropped client still got ${bytes} bytes`);
    await assertHealthy(app, port, 'after the non-reading clients');
  } finally {
    for (const socket of clients) socket.destroy();
    await app.close();
  }
});

test('a slow client that keeps reading is not dropped by send_timeout', async () => {
  const app = makeApp({ send_timeout: SEND_TIMEOUT_MS });
  const port = await listening(app);
  const socket = connect(port, '127.0.0.1');
  try {
    socket.write('GET /big?size=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    let received = 0;
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      // Take a chunk, then pause for well under send_timeout: slow, but steady.
      socket.pause();
      setTimeout(() => socket.resume(), 150).unref();
    });
    const deadline = Date.now() + 20_000;
    while (!closed && Date.now() < deadline) await sleep(50);
    assert.ok(received > 1024 * 1024, `received ${received} bytes`);
    assert.ok(closed, 'the download finished');
  } finally {
    socket.destroy();
    await app.close();
  }
});
