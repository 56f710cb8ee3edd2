import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createKernel, definePlugin, type Kernel, type Request } from '@hickory/core';
import { multipartPlugin, UploadedFile } from './index.ts';

// Real sockets on 127.0.0.1: a client that goes away mid-upload, malformed bodies, and a 413
// sent while the client is still sending. Nothing may reach uncaughtException.

const BOUNDARY = 'socketBoundary42';
let handled = 0;
const uncaught: unknown[] = [];
const spy = (error: unknown): void => {
  uncaught.push(error);
};

const counting = definePlugin({
  name: 'test-counting',
  apply(kernel) {
    kernel.hooks.route.tap('test-counting', () => ({
      target: 'count',
      async handle(req: Request) {
        handled++;
        const post = req.POST;
        const sizes: Record<string, number> = Object.create(null);
        for (const key of Object.keys(post)) sizes[key] = post[key] instanceof UploadedFile ? (post[key] as UploadedFile).size : String(post[key]).length;
        return sizes;
      },
    }));
  },
});

let dir: string;
let kernel: Kernel;
let port: number;

before(async () => {
  process.on('uncaughtException', spy);
  dir = await mkdtemp(join(tmpdir(), 'hickory-mp-sock-'));
  kernel = createKernel({ logger: false }).use(counting).use(multipartPlugin, { memoryThreshold: 1024, tmpdir: dir, limits: { fileSize: 4 * 1024 * 1024 } });
  const { server } = await kernel.listen({ port: 0, host: '127.0.0.1' });
  port = (server.address() as { port: number }).port;
});

after(async () => {
  await kernel.close();
  process.off('uncaughtException', spy);
  await rm(dir, { recursive: true, force: true });
  assert.deepEqual(uncaught, []);
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

function head(length: number | 'chunked', boundary = BOUNDARY): string {
  const framing = length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nAccept: application/json\r\n${framing}\r\n\r\n`;
}

function filePartHead(name = 'file', filename = 'big.bin'): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

// Everything the server sends until it closes the connection (bounded by a timeout).
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', () => {});
    socket.setTimeout(5000, () => socket.destroy());
  });
}

async function until(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

async function serverStillServes(): Promise<void> {
  const before = handled;
  const res = await fetch(`http://127.0.0.1:${port}/after`);
  assert.equal(res.status, 200);
  assert.equal(handled, before + 1);
}

test('a client that disconnects mid-file: temporary files are deleted, the handler never runs, the server keeps serving', async () => {
  const before = handled;
  const socket = await open();
  socket.on('error', () => {});
  socket.write(head(3 * 1024 * 1024) + filePartHead());
  const chunk = Buffer.alloc(64 * 1024, 'q');
  for (let i = 0; i < 8; i++) socket.write(chunk);
  assert.equal(await until(async () => (await readdir(dir)).length > 0), true, 'the upload reached a temporary file');
  socket.destroy();
  assert.equal(await until(async () => (await readdir(dir)).length === 0), true, 'the temporary file was deleted');
  assert.equal(handled, before);
  await serverStillServes();
});

test('a client that disconnects in the middle of a part header, or between parts', async () => {
  for (const partial of [`--${BOUNDARY}\r\nContent-Disposi`, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue\r\n`]) {
    const socket = await open();
    socket.on('error', () => {});
    socket.write(head(100_000) + partial);
    await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
  }
  await serverStillServes();
  assert.deepEqual(await readdir(dir), []);
});

test('a chunked upload cut off mid-file: temporary files are deleted', async () => {
  const socket = await open();
  socket.on('error', () => {});
  socket.write(head('chunked'));
  const body = Buffer.concat([Buffer.from(filePartHead()), Buffer.alloc(256 * 1024, 'c')]);
  socket.write(`${body.length.toString(16)}\r\n`);
  socket.write(body);
  socket.write('\r\n');
  assert.equal(await until(async () => (await readdir(dir)).length > 0), true);
  socket.destroy();
  assert.equal(await until(async () => (await readdir(dir)).length === 0), true);
  await serverStillServes();
});

test('a body that ends before its Content-Length (client half-closes) → 400, files deleted', async () => {
  const socket = await open();
  const reply = readAll(socket);
  socket.write(head(1_000_000) + filePartHead() + 'x'.repeat(5000));
  socket.end();
  const text = await reply;
  assert.match(text, /^HTTP\/1\.1 400 /);
  assert.equal(await until(async () => (await readdir(dir)).length === 0), true);
  await serverStillServes();
});

const malformed: Array<[string, string, string]> = [
  ['a header starting with whitespace', BOUNDARY, `--${BOUNDARY}\r\n  Content-Disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`],
  ['no closing boundary', BOUNDARY, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n`],
  ['a boundary the body does not use', 'elsewhere', `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`],
  ['a bad boundary', 'bad<boundary>', `--bad<boundary>\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--bad<boundary>--\r\n`],
];

for (const [what, boundary, body] of malformed) {
  test(`over a socket, ${what} → 400 with Connection: close`, async () => {
    const socket = await open();
    const reply = readAll(socket);
    socket.write(head(Buffer.byteLength(body), boundary) + body);
    const text = await reply;
    assert.match(text, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(text, /\r\nConnection: close\r\n/i);
    assert.match(text, /Malformed multipart body/);
  });
}

test('a file past fileSize while the declared body is not finished → 413, the temporary file deleted', async () => {
  const socket = await open();
  const reply = readAll(socket);
  socket.write(head(64 * 1024 * 1024) + filePartHead());
  const chunk = Buffer.alloc(64 * 1024, 'l');
  // 8 MiB of a declared 64 MiB, twice the limit; then wait (a client that keeps sending while
  // the server closes may see a reset instead of the answer: that is TCP, not the server).
  for (let i = 0; i < 128 && !socket.destroyed; i++) {
    if (!socket.write(chunk)) await new Promise((r) => { socket.once('drain', r); socket.once('close', r); });
  }
  const text = await reply;
  assert.match(text, /^HTTP\/1\.1 413 /);
  assert.match(text, /\r\nConnection: close\r\n/i);
  assert.match(text, /multipart limit \\?"fileSize\\?"/);
  assert.equal(await until(async () => (await readdir(dir)).length === 0), true);
  await serverStillServes();
});

test('a complete upload over a socket still works after all that', async () => {
  const body = `${filePartHead()}${'d'.repeat(3000)}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--${BOUNDARY}--\r\n`;
  const res = await fetch(`http://127.0.0.1:${port}/upload`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { file: 3000, note: 2 });
  assert.equal(await until(async () => (await readdir(dir)).length === 0), true);
});
