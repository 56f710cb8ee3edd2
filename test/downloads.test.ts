import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { contentDisposition, createKernel, definePlugin, Response, type Kernel } from '@hickory/core';

// Streamed responses (`response.app_iter`): backpressure towards a slow reader, the source
// destroyed when the client goes away, and Content-Disposition for awkward names.

const CHUNK = 64 * 1024;
const MiB = 1024 * 1024;

/** A source that makes 64 KiB chunks on demand and counts how many were asked for. */
class CountingSource extends Readable {
  produced = 0;
  destroyedBy: Error | null | undefined;
  constructor(private readonly total: number) {
    super({ highWaterMark: CHUNK });
  }
  override _read(): void {
    if (this.produced >= this.total) {
      this.push(null);
      return;
    }
    this.produced += CHUNK;
    this.push(Buffer.alloc(CHUNK, 'd'));
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.destroyedBy = error;
    callback(error);
  }
}

function serving(make: () => Response | Promise<Response>): Kernel {
  const plugin = definePlugin({
    name: 'test-download',
    apply(kernel) {
      kernel.hooks.route.tap('test-download', () => ({ target: 'download', handle: () => make() }));
    },
  });
  return createKernel({ logger: false }).use(plugin);
}

async function openGet(kernel: Kernel, path = '/file'): Promise<Socket> {
  const { url } = await kernel.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(url).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

async function settle(read: () => number): Promise<number> {
  // Waits until the value stops changing for 10 consecutive polls (bounded: 5 s).
  let last = -1;
  let still = 0;
  for (let i = 0; i < 500 && still < 10; i++) {
    const now = read();
    still = now === last ? still + 1 : 0;
    last = now;
    await new Promise((r) => setTimeout(r, 10));
  }
  return last;
}

async function until(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

test('a slow reader: the server reads the source only as fast as the client takes it', async () => {
  const source = new CountingSource(256 * MiB);
  const kernel = serving(() => new Response({ app_iter: source, headers: { 'Content-Type': 'application/octet-stream' } }));
  const socket = await openGet(kernel);
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  assert.equal(await until(() => received > 0), true);
  socket.pause(); // the client stops reading
  const stalled = await settle(() => source.produced);
  // Socket buffers on both sides hold a few MiB at most; the 256 MiB source stays mostly unread.
  assert.ok(stalled < 32 * MiB, `read ${stalled / MiB} MiB ahead of a stalled client`);
  // Reading a little more lets the source advance a little, never all at once.
  socket.resume();
  assert.equal(await until(() => source.produced > stalled), true);
  socket.pause();
  const later = await settle(() => source.produced);
  assert.ok(later < 128 * MiB, `read ${later / MiB} MiB`);
  socket.destroy();
  assert.equal(await until(() => source.destroyed), true);
  await kernel.close();
});

test('a client that goes away mid-download: the source stream is destroyed, the server keeps serving', async () => {
  const sources: CountingSource[] = [];
  const kernel = serving(() => {
    const source = new CountingSource(16 * MiB);
    sources.push(source);
    return new Response({ app_iter: source });
  });
  const socket = await openGet(kernel);
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  assert.equal(await until(() => received > 256 * 1024), true);
  socket.destroy();
  assert.equal(await until(() => sources[0]!.destroyed), true);
  assert.ok(sources[0]!.produced < 16 * MiB);
  const res = await kernel.inject({ url: '/file' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.rawPayload.length, 16 * MiB);
  await kernel.close();
});

test('an async generator as app_iter: its finally block runs when the client goes away', async () => {
  let finished = false;
  let yielded = 0;
  const kernel = serving(
    () =>
      new Response({
        app_iter: (async function* () {
          try {
            for (let i = 0; i < 100_000; i++) {
              yielded++;
              yield Buffer.alloc(CHUNK, 'g');
            }
          } finally {
            finished = true;
          }
        })(),
      }),
  );
  const socket = await openGet(kernel);
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  assert.equal(await until(() => received > CHUNK), true);
  socket.destroy();
  assert.equal(await until(() => finished), true);
  assert.ok(yielded < 100_000);
  await kernel.close();
});

test('iterables and async iterables are streamed whole; Content-Type and Content-Disposition are sent as set', async () => {
  const name = 'rapport "final"\r\nX-Evil: 1 — été.csv';
  const kernel = serving(() => {
    const response = new Response({ app_iter: ['a,b\n', Buffer.from('1,2\n')] });
    response.headers['Content-Type'] = 'text/csv; charset=utf-8';
    response.headers['Content-Disposition'] = contentDisposition(name);
    return response;
  });
  const res = await kernel.inject('/file');
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, 'a,b\n1,2\n');
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(
    res.headers['content-disposition'],
    `attachment; filename="rapport \\"final\\"X-Evil: 1 _ ete.csv"; filename*=UTF-8''rapport%20%22final%22X-Evil%3A%201%20%E2%80%94%20%C3%A9t%C3%A9.csv`,
  );
  assert.equal(res.headers['x-evil'], undefined);
  await kernel.close();

  const asyncKernel = serving(
    () =>
      new Response({
        app_iter: (async function* () {
          yield 'x';
          yield Buffer.from('y');
        })(),
        headers: { 'Content-Disposition': contentDisposition('日本.txt', { type: 'inline' }) },
      }),
  );
  const res2 = await asyncKernel.inject('/file');
  assert.equal(res2.body, 'xy');
  assert.equal(res2.headers['content-type'], 'application/octet-stream');
  assert.equal(res2.headers['content-disposition'], `inline; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`);
  await asyncKernel.close();
});
