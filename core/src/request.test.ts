import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, type Request } from './index.ts';
import { handle, parseRaw, rawExchange } from './fixtures/harness.ts';

function echo(read: (req: Request) => unknown) {
  return createKernel({ logger: false }).use(handle((req) => read(req)));
}

test('path, method, url and query_string', async () => {
  const app = echo((req) => ({ path: req.path, method: req.method, url: req.url, qs: req.query_string }));
  let res = await app.inject({ method: 'PUT', url: '/a/b%2Fc/?x=1&y=%20' });
  assert.deepEqual(res.json(), { path: '/a/b%2Fc/', method: 'PUT', url: '/a/b%2Fc/?x=1&y=%20', qs: 'x=1&y=%20' });
  res = await app.inject({ method: 'GET', url: '/plain' });
  assert.deepEqual(res.json(), { path: '/plain', method: 'GET', url: '/plain', qs: '' });
  await app.close();
});

test('headers are case-insensitive, read-only and have a null prototype', async () => {
  const app = echo((req) => {
    const h = req.headers;
    const attempts = [Reflect.set(h, 'x-new', '1'), Reflect.deleteProperty(h, 'x-token')];
    return {
      lower: h['x-token'],
      mixed: h['X-Token'],
      has: 'X-TOKEN' in h,
      missing: h['x-missing'] ?? 'none',
      proto: Object.getPrototypeOf(h) === null,
      ctor: typeof h.constructor,
      toString: typeof h.toString,
      keys: Object.keys(h).includes('x-token'),
      attempts,
      after: h['x-token'],
    };
  });
  const res = await app.inject({ url: '/', headers: { 'X-Token': 'abc' } });
  assert.deepEqual(res.json(), {
    lower: 'abc',
    mixed: 'abc',
    has: true,
    missing: 'none',
    proto: true,
    ctor: 'undefined',
    toString: 'undefined',
    keys: true,
    attempts: [false, false],
    after: 'abc',
  });
  await app.close();
});

test('a request header named constructor or __proto__ is just a header', async () => {
  const app = echo((req) => ({ c: req.headers['constructor'] ?? null, p: req.headers['__proto__'] ?? null }));
  const res = await app.inject({ url: '/', headers: { constructor: 'x' } });
  assert.deepEqual(res.json(), { c: 'x', p: null });
  await app.close();
});

test('GET: query variables with a null prototype, repeated keys as arrays', async () => {
  const app = echo((req) => ({ get: req.GET, proto: Object.getPrototypeOf(req.GET), same: req.GET === req.GET }));
  const res = await app.inject('/?a=1&b=x%20y&a=2&__proto__=p&constructor=c&empty=');
  assert.equal(res.body, '{"get":{"a":["1","2"],"b":"x y","__proto__":"p","constructor":"c","empty":""},"proto":null,"same":true}');
  assert.equal(({} as Record<string, unknown>).p, undefined);
  await app.close();
});

test('GET with more than param_limit parameters → 400 (empty pairs are no parameters)', async () => {
  const app = createKernel({ logger: false, param_limit: 3 }).use(handle((req) => req.GET));
  assert.equal((await app.inject('/?a=1&b=2&c=3')).statusCode, 200);
  assert.deepEqual((await app.inject('/?&&a=1&&b=2&&&c=3&&')).json(), { a: '1', b: '2', c: '3' });
  const res = await app.inject({ url: '/?a=1&b=2&c=3&d=4', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { code: 400, title: 'Bad Request', description: 'Too many parameters in the query string: at most 3 are accepted.' });
  await app.close();
});

test('POST, params and body, with GET and POST merged in params', async () => {
  const app = echo((req) => ({ post: req.POST, params: req.params, body: req.body.toString(), proto: Object.getPrototypeOf(req.params) }));
  const res = await app.inject({
    method: 'POST',
    url: '/?a=q&only=query',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'a=b&c=d',
  });
  assert.deepEqual(res.json(), {
    post: { a: 'b', c: 'd' },
    params: { a: ['q', 'b'], only: 'query', c: 'd' },
    body: 'a=b&c=d',
    proto: null,
  });
  await app.close();
});

test('json: the parsed body; undefined without a body', async () => {
  const app = echo((req) => ({ json: req.json ?? 'none', post: req.POST }));
  let res = await app.inject({ method: 'POST', url: '/', payload: { a: [1, { b: 2 }] } });
  assert.deepEqual(res.json(), { json: { a: [1, { b: 2 }] }, post: { a: [1, { b: 2 }] } });
  res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: '[1,2]' });
  assert.deepEqual(res.json(), { json: [1, 2], post: {} });
  res = await app.inject({ method: 'GET', url: '/' });
  assert.deepEqual(res.json(), { json: 'none', post: {} });
  res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/vnd.api+json' }, payload: '{"x":1}' });
  assert.deepEqual(res.json(), { json: { x: 1 }, post: { x: 1 } });
  await app.close();
});

test('context is a fresh object per request', async () => {
  const contexts: object[] = [];
  const app = echo((req) => {
    contexts.push(req.context);
    const before = { ...req.context };
    req.context.user = 'ann';
    return before;
  });
  assert.deepEqual((await app.inject('/')).json(), {});
  assert.deepEqual((await app.inject('/')).json(), {});
  assert.notEqual(contexts[0], contexts[1]);
  await app.close();
});

test('an absolute-form target routes by its path; url becomes path and query', async () => {
  const app = echo((req) => ({ path: req.path, url: req.url, qs: req.query_string, x: req.GET.x, env: req.environ.PATH_INFO }));
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const raw = await rawExchange(url, 'GET http://example.com/a/b?x=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n');
  const res = parseRaw(raw);
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.body), { path: '/a/b', url: '/a/b?x=1', qs: 'x=1', x: '1', env: '/a/b' });
  const bare = parseRaw(await rawExchange(url, 'GET http://example.com HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n'));
  assert.deepEqual(JSON.parse(bare.body), { path: '/', url: '/', qs: '', env: '/' });
  await app.close();
});

test('rewrite keeps url, path, query and environ in step', async () => {
  const app = echo((req) => {
    const seen: unknown[] = [req.GET.a];
    req.rewrite('/next');
    seen.push(req.url, req.path, req.query_string, req.GET.a, req.environ.PATH_INFO);
    req.rewrite('/last?a=2');
    seen.push(req.url, req.path, req.query_string, req.GET.a, req.environ.QUERY_STRING);
    req.query_string = '';
    seen.push(req.GET.a ?? null, req.environ.QUERY_STRING);
    return seen;
  });
  const res = await app.inject('/first?a=1');
  assert.deepEqual(res.json(), ['1', '/next?a=1', '/next', 'a=1', '1', '/next', '/last?a=2', '/last', 'a=2', '2', 'a=2', null, '']);
  await app.close();
});

test('HEAD requests reach the handler with method HEAD and get no body', async () => {
  const app = echo((req) => `method ${req.method}`);
  const { url } = await app.listen({ port: 0 });
  const raw = await rawExchange(url, 'HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.match(raw, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(raw, /Content-Length: 11\r\n/);
  assert.ok(raw.endsWith('\r\n\r\n'), 'no body after the headers');
  await app.close();
});

test('an ignored GET body stays unread: load() after bodyIgnoredFor() is a no-op', async () => {
  const app = echo(async (req) => {
    await req.load();
    return `${req.loaded} ${req.body.length} ${Object.keys(req.POST).length} ${String(req.json)}`;
  });
  const res = await app.inject({ method: 'GET', url: '/', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
  assert.equal(res.body, 'true 0 0 undefined');
  await app.close();
});

test('DELETE with a JSON Content-Type: no body framed is no error, an empty one framed is (400)', async () => {
  const app = echo((req) => Object.keys(req.POST).join(','));
  const headers = { 'content-type': 'application/json' };
  assert.equal((await app.inject({ method: 'DELETE', url: '/', headers })).statusCode, 204);
  assert.equal((await app.inject({ method: 'DELETE', url: '/', headers: { ...headers, 'content-length': '0' } })).statusCode, 400);
  assert.equal((await app.inject({ method: 'POST', url: '/', headers })).statusCode, 400);
  assert.equal((await app.inject({ method: 'DELETE', url: '/', headers, payload: '{"a":1}' })).body, 'a');
  await app.close();
});
