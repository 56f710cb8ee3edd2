import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { createKernel, definePlugin, type Request } from './index.ts';
import { INPUT_OBJECT_PROTOTYPE } from './input-object.ts';
import { parseJsonBody } from './json-body.ts';
import { handle, parseRaw, rawExchange } from './fixtures/harness.ts';

const JSON_ACCEPT = { accept: 'application/json' };
const FORM = 'application/x-www-form-urlencoded';

function app(read: (req: Request) => unknown = (req) => req.POST, config = {}) {
  return createKernel({ logger: false, ...config }).use(handle(read));
}

test('urlencoded bodies: null prototype, repeated keys as arrays, dangerous keys stay plain keys', async () => {
  const kernel = app((req) => ({ post: req.POST, proto: Object.getPrototypeOf(req.POST) }));
  const res = await kernel.inject({
    method: 'POST',
    url: '/',
    headers: { 'content-type': `${FORM}; charset=utf-8` },
    payload: 'a=1&a=2&name=D%C3%BCne&__proto__=x&constructor=y&plus=a+b',
  });
  assert.equal(res.body, '{"post":{"a":["1","2"],"name":"Düne","__proto__":"x","constructor":"y","plus":"a b"},"proto":null}');
  assert.equal(({} as Record<string, unknown>).x, undefined);
  await kernel.close();
});

test('JSON bodies: no object inherits from Object.prototype, and each prints as [object Object]', async () => {
  const kernel = app((req) => {
    const value = req.json as { a: { b: Array<{ c: number }> } };
    const chain = (o: object) => [Object.getPrototypeOf(o) === INPUT_OBJECT_PROTOTYPE, Object.getPrototypeOf(Object.getPrototypeOf(o))];
    return [...chain(value), ...chain(value.a), ...chain(value.a.b[0]!), Array.isArray(value.a.b), `${value.a}`, String(value.a.b), 'hasOwnProperty' in value];
  });
  const res = await kernel.inject({ method: 'POST', url: '/', payload: { a: { b: [{ c: 1 }] } } });
  assert.deepEqual(res.json(), [true, null, true, null, true, null, true, '[object Object]', '[object Object]', false]);
  await kernel.close();
});

test('__proto__, constructor and prototype keys in JSON → 400, also when escaped', async () => {
  const kernel = app();
  for (const payload of [
    '{"__proto__":{"polluted":true}}',
    '{"a":{"constructor":{"prototype":{"polluted":true}}}}',
    '{"\\u005f_proto__":{"polluted":true}}',
    '{"\\u0063onstructor":1}',
    '[{"deep":[{"__proto__":1}]}]',
  ]) {
    const res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', ...JSON_ACCEPT }, payload });
    assert.equal(res.statusCode, 400, payload);
    assert.match((res.json() as { description: string }).description, /forbidden key "(__proto__|constructor|prototype)"/);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.throws(() => parseJsonBody('{"__proto__":1}'), { status: 400 });
  assert.deepEqual(Object.keys(parseJsonBody('{"\\u0041":1}') as object), ['A']);
  await kernel.close();
});

test('malformed JSON → 400', async () => {
  const kernel = app((req) => req.json);
  for (const payload of ['{"a":', '{a:1}', "{'a':1}", 'nul']) {
    const res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', ...JSON_ACCEPT }, payload });
    assert.equal(res.statusCode, 400, payload);
    assert.deepEqual(res.json(), { code: 400, title: 'Bad Request', description: 'The request body is not valid JSON.' });
  }
  await kernel.close();
});

test('an unknown content type with a body → 415 when variables are needed, fine otherwise', async () => {
  const kernel = createKernel({ logger: false }).use(handle((req) => (req.path === '/raw' ? `raw:${req.body.toString()}` : req.params)));
  let res = await kernel.inject({ method: 'POST', url: '/vars', headers: { 'content-type': 'text/csv', ...JSON_ACCEPT }, payload: 'a,b' });
  assert.equal(res.statusCode, 415);
  assert.match((res.json() as { description: string }).description, /text\/csv/);
  res = await kernel.inject({ method: 'POST', url: '/vars', headers: JSON_ACCEPT, payload: Buffer.from('no type') });
  assert.equal(res.statusCode, 415);
  res = await kernel.inject({ method: 'POST', url: '/raw', headers: { 'content-type': 'text/csv' }, payload: 'a,b' });
  assert.equal(res.body, 'raw:a,b');
  await kernel.close();
});

test('multipart without a plugin → 415 naming multipartPlugin', async () => {
  const kernel = app();
  const res = await kernel.inject({
    method: 'POST',
    url: '/',
    headers: { 'content-type': 'multipart/form-data; boundary=x', ...JSON_ACCEPT },
    payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
  });
  assert.equal(res.statusCode, 415);
  assert.match((res.json() as { description: string }).description, /multipartPlugin/);
  await kernel.close();
});

test('a parseBody tap for a media type consumes the stream instead of the kernel', async () => {
  const kernel = createKernel({ logger: false })
    .use(
      definePlugin({
        name: 'csv',
        apply: (k) =>
          k.hooks.parseBody.for('text/csv').tapPromise('csv', async (req) => {
            let text = '';
            for await (const chunk of req.raw) text += chunk;
            const [key, value] = text.split(',');
            return Object.assign(Object.create(null), { [key!]: value });
          }),
      }),
    )
    .use(handle((req) => ({ post: req.POST, body: req.body.length })));
  const res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/csv' }, payload: 'k,v' });
  assert.deepEqual(res.json(), { post: { k: 'v' }, body: 0 });
  await kernel.close();
});

test('body_limit: 1 MiB by default; larger bodies → 413 with or without Content-Length', async () => {
  const kernel = app((req) => req.body.length);
  const limit = 1024 * 1024;
  let res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/plain' }, payload: Buffer.alloc(limit) });
  assert.equal(res.body, String(limit));
  res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/plain', ...JSON_ACCEPT }, payload: Buffer.alloc(limit + 1) });
  assert.equal(res.statusCode, 413);
  assert.equal(res.headers.connection, 'close');
  assert.deepEqual(res.json(), { code: 413, title: 'Payload Too Large', description: `The request body is larger than the limit of ${limit} bytes.` });
  // Chunked: no Content-Length, the limit is enforced while reading.
  const chunked = (size: number) => Readable.from([Buffer.alloc(size - 10), Buffer.alloc(10)]);
  const streamed = { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' };
  res = await kernel.inject({ method: 'POST', url: '/', headers: streamed, payload: chunked(limit) });
  assert.equal(res.body, String(limit));
  res = await kernel.inject({ method: 'POST', url: '/', headers: streamed, payload: chunked(limit + 1) });
  assert.equal(res.statusCode, 413);
  await kernel.close();
});

test('body_limit over a real socket: declared and chunked bodies → 413', async () => {
  const kernel = app((req) => req.body.length, { body_limit: 1000 });
  const { url } = await kernel.listen({ port: 0 });
  let res = parseRaw(await rawExchange(url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\nabc'));
  assert.equal(res.status, 413);
  assert.equal(res.headers.connection, 'close');
  const chunk = (n: number) => `${n.toString(16)}\r\n${'y'.repeat(n)}\r\n`;
  res = parseRaw(await rawExchange(url, `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(600)}${chunk(600)}0\r\n\r\n`));
  assert.equal(res.status, 413);
  res = parseRaw(await rawExchange(url, `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunk(500)}${chunk(500)}0\r\n\r\n`));
  assert.equal(res.status, 200);
  assert.equal(res.body, '1000');
  await kernel.close();
});

test('param_limit: 1000 by default; more body parameters → 413', async () => {
  const kernel = app((req) => Object.keys(req.POST).length);
  const form = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=${i}`).join('&');
  let res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': FORM }, payload: form(1000) });
  assert.equal(res.body, '1000');
  res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': FORM, ...JSON_ACCEPT }, payload: form(1001) });
  assert.equal(res.statusCode, 413);
  assert.deepEqual(res.json(), { code: 413, title: 'Payload Too Large', description: 'Too many parameters: at most 1000 are accepted.' });
  await kernel.close();
});

test('the body is parsed lazily: a handler that never reads it does not pay for parsing', async () => {
  let parses = 0;
  const parse = JSON.parse;
  const kernel = createKernel({ logger: false }).use(handle((req) => (req.path === '/read' ? req.json : 'not read')));
  await kernel.ready();
  JSON.parse = ((...args: Parameters<typeof JSON.parse>) => {
    parses++;
    return parse(...args);
  }) as typeof JSON.parse;
  try {
    let res = await kernel.inject({ method: 'POST', url: '/ignore', headers: { 'content-type': 'application/json' }, payload: '{"not json' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, 'not read');
    assert.equal(parses, 0);
    res = await kernel.inject({ method: 'POST', url: '/ignore', headers: { 'content-type': FORM }, payload: 'a=1&'.repeat(5000) });
    assert.equal(res.statusCode, 200, 'too many parameters are only found when they are read');
    res = await kernel.inject({ method: 'POST', url: '/read', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    assert.equal(res.body, '{"a":1}');
    assert.ok(parses >= 1);
  } finally {
    JSON.parse = parse;
  }
  await kernel.close();
});

test('a body is not read when the lookup says loadBody: false (the handler streams it)', async () => {
  const kernel = createKernel({ logger: false }).use(
    handle(
      async (req) => {
        let size = 0;
        for await (const chunk of req.raw) size += (chunk as Buffer).length;
        return `streamed ${size}, loaded ${String(req.loaded)}`;
      },
      'stream-route',
      false,
    ),
  );
  const res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/plain' }, payload: Buffer.alloc(2 * 1024 * 1024) });
  assert.equal(res.body, `streamed ${2 * 1024 * 1024}, loaded false`);
  await kernel.close();
});

test('reading POST before the body is loaded is a coded developer error (500)', async () => {
  const kernel = createKernel({ logger: false }).use(definePlugin({ name: 'early', apply: (k) => k.hooks.beforeRoute.tap('early', (req) => req.POST) }));
  const res = await kernel.inject({ method: 'POST', url: '/', headers: { 'content-type': FORM }, payload: 'a=1' });
  assert.equal(res.statusCode, 500);
  await kernel.close();
});

test('a Content-Length that lies (fewer bytes, then a half-close) → 400 or a closed socket, never a hang', async () => {
  let calls = 0;
  const kernel = app((req) => {
    calls++;
    return req.body.length;
  });
  const { url } = await kernel.listen({ port: 0 });
  const raw = await rawExchange(url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789', true);
  if (raw !== '') assert.equal(parseRaw(raw).status, 400);
  assert.equal(calls, 0, 'the handler never ran');
  // The server is still healthy.
  assert.equal(await (await fetch(url, { method: 'POST', body: 'ok', headers: { 'content-type': 'text/plain' } })).text(), '2');
  await kernel.close();
});

test('a Content-Length that lies (more bytes): the rest is a bad request → 400, connection closed', async () => {
  const kernel = app((req) => req.body.toString());
  const { url } = await kernel.listen({ port: 0 });
  const raw = await rawExchange(url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabcGARBAGE\r\n\r\n');
  // Node's parser reads ahead: the garbage may be refused before or after the first answer.
  assert.match(raw, /HTTP\/1\.1 400 Bad Request\r\n/);
  assert.doesNotMatch(raw, /GARBAGE/);
  assert.equal(await (await fetch(url, { method: 'POST', body: 'fine', headers: { 'content-type': 'text/plain' } })).text(), 'fine');
  await kernel.close();
});

test('a client that goes away mid-body does not crash the server', async () => {
  const kernel = app((req) => req.body.length);
  const { url } = await kernel.listen({ port: 0 });
  await new Promise<void>((resolve) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': '1000' } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write('partial', () => setImmediate(() => req.destroy()));
  });
  assert.equal(await (await fetch(url, { method: 'POST', body: 'still up', headers: { 'content-type': 'text/plain' } })).text(), '8');
  await kernel.close();
});
