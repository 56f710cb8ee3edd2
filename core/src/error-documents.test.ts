import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abort, createKernel, definePlugin } from './index.ts';
import { capture, routes } from './fixtures/harness.ts';

test('errors config: the error document is rendered by an internal request; the status is kept', async () => {
  const app = createKernel({ logger: false, errors: { 404: '/error/404', 403: '/error/403' } }).use(
    routes({
      '/error/404': (req) =>
        `<p>nothing at ${req.environ['hickory.original_exception'] ? 'this path' : '?'} (${req.method} ${req.path}?${req.query_string}) for ${String(req.environ['hickory.original_url'])} ${String(req.environ['hickory.original_path'])}</p>`,
      '/error/403': () => ({ denied: true }),
      '/secret': () => abort(403, 'no', { 'X-Reason': 'policy' }),
    }),
  );
  let res = await app.inject({ method: 'POST', url: '/missing?x=1', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.body, '<p>nothing at this path (GET /error/404?x=1) for /missing?x=1 /missing</p>');
  res = await app.inject('/secret');
  assert.equal(res.statusCode, 403);
  assert.equal(res.headers['x-reason'], 'policy');
  assert.deepEqual(res.json(), { denied: true });
  await app.close();
});

test('the request is restored after the error document (path, query, url, method)', async () => {
  const seen: string[] = [];
  const app = createKernel({ logger: false, errors: { 404: '/nf?from=doc' } })
    .use(definePlugin({ name: 'seen', apply: (k) => k.hooks.onResponse.tap('seen', (req) => void seen.push(`${req.method} ${req.url} ${req.path} ${req.query_string}`)) }))
    .use(routes({ '/nf': (req) => `doc ${req.GET.from as string}` }));
  assert.equal((await app.inject({ method: 'DELETE', url: '/gone' })).body, 'doc doc');
  assert.equal((await app.inject({ method: 'PUT', url: '/gone?a=1' })).body, 'doc doc');
  assert.deepEqual(seen, ['DELETE /gone /gone ', 'PUT /gone?a=1 /gone a=1']);
  await app.close();
});

test('a failing error document falls back to the default error body, logged', async () => {
  const logger = capture();
  const app = createKernel({ logger, errors: { 404: '/error/404', 410: '/missing-doc' } }).use(
    routes({
      '/error/404': () => {
        throw new Error('template broke');
      },
      '/gone': () => abort(410),
    }),
  );
  let res = await app.inject({ url: '/nothing', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), { code: 404, title: 'Not Found', description: 'The resource could not be found.' });
  res = await app.inject('/gone');
  assert.equal(res.statusCode, 410);
  assert.match(res.body, /410 Gone/);
  assert.match(logger.text(), /error document \/error\/404 for 404 failed/);
  assert.match(logger.text(), /error document \/missing-doc for 410 failed/);
  await app.close();
});

test('an error document for a body error (413) does not read the body again', async () => {
  const app = createKernel({ logger: false, body_limit: 10, errors: { 413: '/too-big' } }).use(
    routes({ '/upload': (req) => req.body.length, '/too-big': () => 'too big, sorry' }),
  );
  const res = await app.inject({ method: 'POST', url: '/upload', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(100) });
  assert.equal(res.statusCode, 413);
  assert.equal(res.body, 'too big, sorry');
  await app.close();
});

test('errors config keeps request.context between the request and its error document', async () => {
  const app = createKernel({ logger: false, errors: { 401: '/login-needed' } }).use(
    routes({
      '/private': (req) => {
        req.context.wanted = '/private';
        return abort(401);
      },
      '/login-needed': (req) => `log in to see ${req.context.wanted as string}`,
    }),
  );
  const res = await app.inject('/private');
  assert.equal(res.statusCode, 401);
  assert.equal(res.body, 'log in to see /private');
  await app.close();
});
