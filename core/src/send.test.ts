import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { createKernel, definePlugin, type ResponseInfo } from './index.ts';
import { deferred, handle, parseRaw, rawExchange } from './fixtures/harness.ts';

test('app_iter from an array, a generator, an async generator and a Node stream', async () => {
  const app = createKernel({ logger: false }).use(
    handle((req, res) => {
      switch (req.path) {
        case '/array':
          res.app_iter = ['a', Buffer.from('b'), new Uint8Array([99])];
          break;
        case '/generator':
          res.app_iter = (function* () {
            for (let i = 0; i < 3; i++) yield `g${i};`;
          })();
          break;
        case '/async':
          res.content_type = 'text/plain';
          res.app_iter = (async function* () {
            for (let i = 0; i < 3; i++) {
              await new Promise((r) => setImmediate(r));
              yield `a${i};`;
            }
          })();
          break;
        default:
          res.status = 201;
          res.app_iter = Readable.from(['s1;', 's2;']);
      }
      return undefined;
    }),
  );
  const { url } = await app.listen({ port: 0 });
  const expected: Record<string, [number, string, string]> = {
    '/array': [200, 'abc', 'application/octet-stream'],
    '/generator': [200, 'g0;g1;g2;', 'application/octet-stream'],
    '/async': [200, 'a0;a1;a2;', 'text/plain; charset=utf-8'],
    '/stream': [201, 's1;s2;', 'application/octet-stream'],
  };
  for (const [path, [status, body, type]] of Object.entries(expected)) {
    const res = await fetch(url + path);
    assert.equal(res.status, status, path);
    assert.equal(res.headers.get('content-type'), type, path);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked', path);
    assert.equal(await res.text(), body, path);
  }
  const injected = await app.inject('/generator');
  assert.equal(injected.body, 'g0;g1;g2;');
  await app.close();
});

test('HEAD with app_iter sends headers only and destroys the source', async () => {
  let destroyed = false;
  const app = createKernel({ logger: false }).use(
    handle((_req, res) => {
      const source = Readable.from(['never sent']);
      source.on('close', () => (destroyed = true));
      res.app_iter = source;
      return undefined;
    }),
  );
  const { url } = await app.listen({ port: 0 });
  const raw = await rawExchange(url, 'HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.match(raw, /^HTTP\/1\.1 200 OK\r\n/);
  assert.doesNotMatch(raw, /never sent/);
  assert.ok(raw.endsWith('\r\n\r\n'));
  assert.equal(destroyed, true);
  await app.close();
});

test('HEAD with a Buffer body keeps Content-Length and sends no body', async () => {
  const app = createKernel({ logger: false }).use(handle(() => Buffer.from('12345')));
  const { url } = await app.listen({ port: 0 });
  const res = parseRaw(await rawExchange(url, 'HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-length'], '5');
  assert.ok(res.raw.endsWith('\r\n\r\n'));
  await app.close();
});

const CHUNK = 64 * 1024;
const CHUNKS = 1024; // 64 MiB in all: far more than socket buffers hold

test('a large stream to a slow reader is read no further ahead than the buffers allow (backpressure)', async () => {
  let produced = 0;
  const app = createKernel({ logger: false }).use(
    handle((_req, res) => {
      let sent = 0;
      res.app_iter = new Readable({
        read() {
          if (sent === CHUNKS) return void this.push(null);
          sent++;
          produced += CHUNK;
          this.push(Buffer.alloc(CHUNK, 120));
        },
      });
      return undefined;
    }),
  );
  const { url } = await app.listen({ port: 0 });
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port) });
  let received = 0;
  const firstData = deferred();
  socket.once('data', () => {
    socket.pause();
    firstData.resolve();
  });
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await firstData.promise;
  // Let the server fill every buffer until the source stops being read (bounded wait).
  let last = -1;
  for (let i = 0; i < 200 && produced !== last; i++) {
    last = produced;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(produced < (CHUNK * CHUNKS) / 4, `read ${produced} bytes ahead of a client that took ${received}`);
  const ended = new Promise((r) => socket.once('end', r));
  socket.resume();
  await ended;
  assert.equal(produced, CHUNK * CHUNKS);
  assert.ok(received > CHUNK * CHUNKS, 'the client got the whole body');
  socket.destroy();
  await app.close();
});

test('the source is destroyed when the client disconnects mid-download', async () => {
  const closed = deferred();
  const infos: ResponseInfo[] = [];
  let finallyRan = false;
  const app = createKernel({ logger: false })
    .use(definePlugin({ name: 'info', apply: (k) => k.hooks.onResponse.tap('info', (_q, _r, info) => void infos.push(info)) }))
    .use(
      handle((req, res) => {
        if (req.path === '/generator') {
          res.app_iter = (async function* () {
            try {
              for (let i = 0; i < 100_000; i++) yield Buffer.alloc(CHUNK, 121);
            } finally {
              finallyRan = true;
              closed.resolve();
            }
          })();
          return undefined;
        }
        let n = 0;
        const source = new Readable({
          read() {
            this.push(n++ < 100_000 ? Buffer.alloc(CHUNK, 120) : null);
          },
        });
        source.on('close', () => closed.resolve());
        res.app_iter = source;
        return undefined;
      }),
    );
  const { url } = await app.listen({ port: 0 });
  for (const path of ['/stream', '/generator']) {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port) });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await new Promise((r) => socket.once('data', r));
    socket.destroy();
    await closed.promise;
    Object.assign(closed, deferred());
  }
  assert.equal(finallyRan, true);
  // onResponse reports the cut-off downloads as not completed.
  for (let i = 0; i < 100 && infos.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(infos.map((i) => i.completed), [false, false]);
  await app.close();
});

test('a stream that fails mid-body is logged and the connection is cut', async () => {
  const errors: string[] = [];
  const logger = { info() {}, warn() {}, error: (m: string) => void errors.push(m) };
  const app = createKernel({ logger }).use(
    handle((_req, res) => {
      res.app_iter = (async function* () {
        yield 'partial';
        throw new Error('disk gone');
      })();
      return undefined;
    }),
  );
  const { url } = await app.listen({ port: 0 });
  await assert.rejects(fetch(url).then((r) => r.text()));
  assert.ok(errors.some((m) => /streaming the body of GET \/ failed/.test(m)));
  await app.close();
});

test("a streamed body's Content-Length goes out as the one number it is held to, or not at all when it is no byte count", async () => {
  const warnings: string[] = [];
  const logger = { info() {}, warn: (m: string) => void warnings.push(m), error() {} };
  const app = createKernel({ logger }).use(
    handle((req, res) => {
      res.headers['Content-Length'] = req.path === '/spaced' ? ' 3 ' : req.path === '/list' ? ['3', '3'] : '3 apples';
      res.app_iter = ['abc'];
      return undefined;
    }),
  );
  const { url } = await app.listen({ port: 0 });
  for (const path of ['/spaced', '/list']) {
    const res = parseRaw(await rawExchange(url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    assert.equal(res.headers['content-length'], '3', path);
    assert.equal(res.raw.match(/content-length/gi)?.length, 1, path);
    assert.equal(res.body, 'abc', path);
  }
  const dropped = parseRaw(await rawExchange(url, 'GET /apples HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
  assert.equal(dropped.headers['content-length'], undefined);
  assert.equal(dropped.headers['transfer-encoding'], 'chunked');
  assert.equal(dropped.body, 'abc');
  assert.deepEqual(warnings, ['GET /apples: the Content-Length "3 apples" set for a streamed body is not a byte count; it was dropped and the body sent without it']);
  await app.close();
});
