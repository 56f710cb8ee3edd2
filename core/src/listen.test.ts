import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createKernel, definePlugin } from './index.ts';
import { deferred, handle, parseRaw, rawExchange } from './fixtures/harness.ts';

function open(url: string): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port) });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

function collect(socket: Socket): { text: () => string; closed: Promise<void>; next: (pattern: RegExp) => Promise<string> } {
  let data = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    data += chunk.toString('latin1');
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const next = async (pattern: RegExp): Promise<string> => {
    for (let i = 0; i < 1000 && !pattern.test(data); i++) await Promise.race([new Promise<void>((r) => waiters.push(r)), closed]);
    return data;
  };
  return { text: () => data, closed, next };
}

test('listen() serves on 127.0.0.1 with the default timeouts', async () => {
  const app = createKernel({ logger: false }).use(handle(() => 'served'));
  const { server, url } = await app.listen({ port: 0, host: '127.0.0.1' });
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(server.headersTimeout, 60_000);
  assert.equal(server.requestTimeout, 120_000);
  assert.equal(server.keepAliveTimeout, 5_000);
  assert.equal(server.listening, true);
  assert.equal(await (await fetch(url)).text(), 'served');
  await app.close();
  assert.equal(server.listening, false);
});

test('the server timeouts are configurable', async () => {
  const app = createKernel({ logger: false, headers_timeout: 1000, request_timeout: 2000, keep_alive_timeout: 300 });
  const { server } = await app.listen({ port: 0 });
  assert.equal(server.headersTimeout, 1000);
  assert.equal(server.requestTimeout, 2000);
  assert.equal(server.keepAliveTimeout, 300);
  await app.close();
});

test('listen() on a port in use rejects; listen() after close() is a coded error', async () => {
  const app = createKernel({ logger: false });
  const { url } = await app.listen({ port: 0 });
  const other = createKernel({ logger: false });
  await assert.rejects(other.listen({ port: Number(new URL(url).port) }), { code: 'EADDRINUSE' });
  await other.close();
  await app.close();
  await assert.rejects(app.listen({ port: 0 }), { code: 'HICKORY_ERR_CLOSED' });
});

test('callback() works with a server of your own', async () => {
  const app = createKernel({ logger: false }).use(handle(() => 'own server'));
  await app.ready();
  const server = createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'own server');
  await new Promise((r) => server.close(r));
  await app.close();
});

test('close(): stops accepting, lets in-flight requests finish with Connection: close, then runs the close hook', { timeout: 20_000 }, async () => {
  const gate = deferred();
  const started = deferred();
  const events: string[] = [];
  const app = createKernel({ logger: false, close_timeout: 60_000 })
    .use(definePlugin({ name: 'life', apply: (k) => k.hooks.close.tap('life', () => void events.push('close hook')) }))
    .use(
      handle(async () => {
        started.resolve();
        await gate.promise;
        events.push('handler done');
        return 'finished';
      }),
    );
  const { url } = await app.listen({ port: 0 });
  const socket = await open(url);
  const reader = collect(socket);
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await started.promise;
  const closing = app.close().then(() => events.push('closed'));
  await assert.rejects(open(url), { code: 'ECONNREFUSED' });
  assert.deepEqual(events, []);
  gate.resolve();
  await closing;
  await reader.closed;
  const res = parseRaw(reader.text());
  assert.equal(res.status, 200);
  assert.equal(res.body, 'finished');
  assert.equal(res.headers.connection, 'close');
  assert.deepEqual(events, ['handler done', 'close hook', 'closed']);
});

test('close(): a new request on an already-open connection gets 503 with Connection: close', { timeout: 20_000 }, async () => {
  let handled = 0;
  const app = createKernel({ logger: false, close_timeout: 60_000 }).use(handle(() => `handled ${++handled}`));
  const { url } = await app.listen({ port: 0 });
  const socket = await open(url);
  const reader = collect(socket);
  socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
  await reader.next(/handled 1/);
  // The connection is busy with a request whose headers are still arriving when close() starts.
  socket.write('GET /second HTTP/1.1\r\nHost: x\r\n');
  await new Promise((r) => setTimeout(r, 20));
  const closing = app.close();
  await new Promise((r) => setTimeout(r, 20));
  socket.write('\r\n');
  await reader.closed;
  await closing;
  const text = reader.text();
  const second = parseRaw(text.slice(text.indexOf('HTTP/1.1', 10)));
  assert.equal(second.status, 503);
  assert.equal(second.headers.connection, 'close');
  assert.equal(second.body, 'The server is shutting down.');
  assert.equal(handled, 1);
});

test('close(): idle keep-alive connections are closed at once', { timeout: 20_000 }, async () => {
  const app = createKernel({ logger: false, close_timeout: 60_000, keep_alive_timeout: 60_000 }).use(handle(() => 'kept'));
  const { url } = await app.listen({ port: 0 });
  const sockets = await Promise.all([open(url), open(url)]);
  const readers = sockets.map(collect);
  for (const socket of sockets) socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  for (const reader of readers) await reader.next(/kept/);
  await app.close();
  await Promise.all(readers.map((r) => r.closed));
  for (const reader of readers) assert.equal(parseRaw(reader.text()).headers.connection, 'keep-alive');
});

test('close(): after close_timeout everything left is destroyed', { timeout: 20_000 }, async () => {
  const gate = deferred();
  const started = deferred();
  let closeHook = false;
  const app = createKernel({ logger: false, close_timeout: 100 })
    .use(definePlugin({ name: 'life', apply: (k) => k.hooks.close.tap('life', () => void (closeHook = true)) }))
    .use(
      handle(async () => {
        started.resolve();
        await gate.promise;
        return 'too late';
      }),
    );
  const { url } = await app.listen({ port: 0 });
  const socket = await open(url);
  const reader = collect(socket);
  const silent = await open(url); // a connection that never sends a request
  const silentReader = collect(silent);
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await started.promise;
  await app.close();
  await reader.closed;
  await silentReader.closed;
  assert.equal(reader.text(), '');
  assert.equal(closeHook, true);
  gate.resolve();
  await new Promise((r) => setImmediate(r));
});

test('after close(), inject() answers 503', async () => {
  const app = createKernel({ logger: false }).use(handle(() => 'open'));
  assert.equal((await app.inject('/')).body, 'open');
  await app.close();
  const res = await app.inject('/');
  assert.equal(res.statusCode, 503);
  assert.equal(res.headers.connection, 'close');
});

test('raw HTTP/1.0 and keep-alive exchanges behave', async () => {
  const app = createKernel({ logger: false }).use(handle((req) => `v${req.raw.httpVersion}`));
  const { url } = await app.listen({ port: 0 });
  const res = parseRaw(await rawExchange(url, 'GET / HTTP/1.0\r\n\r\n'));
  assert.equal(res.status, 200);
  assert.equal(res.body, 'v1.0');
  await app.close();
});
