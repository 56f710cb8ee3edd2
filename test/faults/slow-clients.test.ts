import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { makeApp, produced } from '../security/app.ts';
import { assertHealthy, listening, withTimeout } from '../security/harness.ts';

// Slow clients: headers sent one byte at a time are cut by headers_timeout, a body trickled past
// request_timeout gets 408, and a reader that stops reading a large download holds the
// producer back (memory stays bounded). Short timeouts keep the suite quick.

const MiB = 1024 * 1024;

interface Trickle {
  socket: Socket;
  /** Resolves with what the server sent and how the connection ended. */
  ended: Promise<{ received: string; sentBytes: number }>;
}

/** Writes `head` right away, then `drip` one byte every `every` ms until the server closes. */
function trickle(port: number, head: string, drip: string, every: number): Trickle {
  const socket = connect(port, '127.0.0.1');
  let sentBytes = 0;
  let received = '';
  socket.write(head);
  const timer = setInterval(() => {
    if (socket.destroyed || sentBytes >= drip.length) return;
    socket.write(drip[sentBytes++]!);
  }, every);
  const ended = new Promise<{ received: string; sentBytes: number }>((resolve) => {
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received, sentBytes });
    });
  });
  return { socket, ended };
}

test('headers sent one byte at a time are closed by headers_timeout (408)', async () => {
  const app = makeApp({ headers_timeout: 300, request_timeout: 900 });
  const port = await listening(app);
  try {
    const headers = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'s'.repeat(2_000)}\r\n\r\n`;
    const clients = Array.from({ length: 5 }, () => trickle(port, '', headers, 20));
    const results = await withTimeout(Promise.all(clients.map((c) => c.ended)), 'slow headers', 5_000);
    for (const { received, sentBytes } of results) {
      assert.ok(sentBytes < headers.length, 'the headers were cut before they were complete');
      assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    }
    await assertHealthy(app, port, 'slow headers');
  } finally {
    await withTimeout(app.close(), 'close after slow headers');
  }
});

test('a body trickled past request_timeout gets 408 and no handler sees it', async () => {
  const app = makeApp({ headers_timeout: 300, request_timeout: 800 });
  const port = await listening(app);
  try {
    const head = 'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n';
    const clients = Array.from({ length: 5 }, () => trickle(port, head, `a=${'x'.repeat(4_998)}`, 25));
    const results = await withTimeout(Promise.all(clients.map((c) => c.ended)), 'slow body', 5_000);
    for (const { received } of results) assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    await assertHealthy(app, port, 'slow body');
  } finally {
    await withTimeout(app.close(), 'close after a slow body');
  }
});

test('a reader that stops reading a 128 MiB download holds the producer back; then it all arrives', async () => {
  const app = makeApp();
  const port = await listening(app);
  try {
    const before = produced.big;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    let received = 0;
    let first = true;
    const done = new Promise<void>((resolve) => socket.on('end', resolve));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (first) {
        first = false;
        socket.pause(); // the slow reader: stops after the first chunk
      }
    });
    socket.write('GET /big?size=128 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    // Let the server fill every buffer it is allowed to fill (bounded poll: 2 s).
    let last = -1;
    for (let i = 0; i < 40 && produced.big !== last; i++) {
      last = produced.big;
      await new Promise((r) => setTimeout(r, 50));
    }
    const held = produced.big - before;
    assert.ok(held < 32 * MiB, `the producer ran ahead of a paused reader: ${held / MiB} MiB made`);
    socket.resume();
    await withTimeout(done, 'the rest of the download', 20_000);
    assert.ok(received > 128 * MiB, `received ${received} bytes`);
    socket.destroy();
    await assertHealthy(app, port, 'slow download');
  } finally {
    await withTimeout(app.close(), 'close after a slow download');
  }
});
