import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abort, createKernel, definePlugin, HTTPError, request } from './index.ts';
import { handle } from './fixtures/harness.ts';

test('environ has the WSGI keys, read from a real socket', async () => {
  const app = createKernel({ logger: false }).use(handle((req) => ({ ...req.environ, proto: Object.getPrototypeOf(req.environ) })));
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = new URL(url).port;
  const res = await fetch(`${url}/a/b?x=1&y=2`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', 'X-Forwarded-Proto': 'https', 'User-Agent': 'test-agent' },
    body: 'hello',
  });
  const env = (await res.json()) as Record<string, string>;
  assert.equal(env.REQUEST_METHOD, 'POST');
  assert.equal(env.SCRIPT_NAME, '');
  assert.equal(env.PATH_INFO, '/a/b');
  assert.equal(env.QUERY_STRING, 'x=1&y=2');
  assert.equal(env.CONTENT_TYPE, 'text/plain');
  assert.equal(env.CONTENT_LENGTH, '5');
  assert.equal(env.SERVER_NAME, '127.0.0.1');
  assert.equal(env.SERVER_PORT, port);
  assert.equal(env.SERVER_PROTOCOL, 'HTTP/1.1');
  assert.equal(env.REMOTE_ADDR, '127.0.0.1');
  assert.match(env.REMOTE_PORT!, /^\d+$/);
  assert.equal(env['wsgi.url_scheme'], 'http');
  assert.equal(env.HTTP_USER_AGENT, 'test-agent');
  assert.equal(env.HTTP_X_FORWARDED_PROTO, 'https');
  assert.equal(env.HTTP_HOST, `127.0.0.1:${port}`);
  assert.equal(env.HTTP_CONTENT_TYPE, undefined);
  assert.equal(env.proto, null);
  await app.close();
});

test('environ is writable and the same object for the whole request', async () => {
  const app = createKernel({ logger: false })
    .use(definePlugin({ name: 'mark', apply: (k) => k.hooks.beforeRoute.tap('mark', (req) => void (req.environ['app.marker'] = 'set early')) }))
    .use(handle((req) => {
      req.environ['HTTP_X_CUSTOM'] = 'rewritten';
      return { marker: req.environ['app.marker'], custom: request.environ['HTTP_X_CUSTOM'], same: req.environ === request.environ };
    }));
  const res = await app.inject({ url: '/', headers: { 'x-custom': 'sent' } });
  assert.deepEqual(res.json(), { marker: 'set early', custom: 'rewritten', same: true });
  await app.close();
});

test("abort() stores the error in environ['hickory.original_exception']", async () => {
  let stored: unknown;
  const app = createKernel({ logger: false })
    .use(definePlugin({ name: 'see', apply: (k) => k.hooks.onAbort.tap('see', (_e, req) => void (stored = req.environ['hickory.original_exception'])) }))
    .use(handle(() => abort(409, 'Taken', { 'X-Why': 'dup' })));
  const res = await app.inject('/');
  assert.equal(res.statusCode, 409);
  assert.equal(res.headers['x-why'], 'dup');
  assert.ok(stored instanceof HTTPError);
  assert.equal((stored as HTTPError).status, 409);
  assert.equal((stored as HTTPError).detail, 'Taken');
  await app.close();
});
