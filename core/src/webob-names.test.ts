import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abort, createKernel, definePlugin, HTTPError, Response } from './index.ts';
import { handle } from './fixtures/harness.ts';

test('request.set_header in a beforeRoute tap: the handler, media_type, cookies and environ see the new value', async () => {
  const rewrite = definePlugin({
    name: 'rewrite',
    apply(kernel) {
      kernel.hooks.beforeRoute.tap('rewrite', (request) => {
        request.set_header('Accept', 'application/json');
        request.set_header('Content-Type', 'application/json');
        request.set_header('Cookie', 'theme=dark');
        request.set_header('X-Gone', undefined);
      });
    },
  });
  const app = createKernel({ logger: false })
    .use(rewrite)
    .use(
      handle((request) => ({
        accept: request.headers['accept'],
        type: request.media_type,
        theme: request.cookies['theme'],
        gone: request.headers['x-gone'] ?? null,
        env: request.environ['HTTP_ACCEPT'],
        body: request.json,
      })),
    );
  const res = await app.inject({ method: 'POST', url: '/', headers: { accept: 'text/html', 'content-type': 'text/plain', 'x-gone': '1' }, payload: '{"a":1}' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { accept: 'application/json', type: 'application/json', theme: 'dark', gone: null, env: 'application/json', body: { a: 1 } });
  await app.close();
});

test('request.set_header refuses CR/LF, a name that is no token and the framing headers', async () => {
  const seen: string[] = [];
  const app = createKernel({ logger: false }).use(
    handle((request) => {
      for (const [name, value] of [
        ['X-A', 'a\r\nSet-Cookie: x=1'],
        ['X-A', 'a\nb'],
        ['Bad Name', 'v'],
        ['Content-Length', '0'],
        ['transfer-encoding', 'chunked'],
      ] as const) {
        try {
          request.set_header(name, value);
          seen.push('accepted');
        } catch (error) {
          seen.push((error as { code: string }).code);
        }
      }
      return { a: request.headers['x-a'] ?? null };
    }),
  );
  const res = await app.inject({ url: '/' });
  assert.deepEqual(res.json(), { a: null });
  assert.deepEqual(seen, ['HICKORY_ERR_HEADER_VALUE', 'HICKORY_ERR_HEADER_VALUE', 'HICKORY_ERR_HEADER_VALUE', 'HICKORY_ERR_REQUEST_HEADER_FRAMING', 'HICKORY_ERR_REQUEST_HEADER_FRAMING']);
  await app.close();
});

test('response.location, status_int and status_code are aliases of headers.Location and status', () => {
  const response = new Response();
  response.status_int = 201;
  assert.equal(response.status, 201);
  assert.equal(response.status_code, 201);
  response.status_code = 202;
  assert.equal(response.status_int, 202);
  assert.equal(response.location, undefined);
  response.location = '/v1/chassis/7';
  assert.equal(response.headers['Location'], '/v1/chassis/7');
  response.headers['location'] = '/v1/chassis/8';
  assert.equal(response.location, '/v1/chassis/8');
  response.location = undefined;
  assert.equal('Location' in response.headers, false);
  assert.throws(() => (response.status_int = 99), { code: 'HICKORY_ERR_STATUS' });
  assert.throws(() => (response.location = '/a\r\nX: y'), { code: 'HICKORY_ERR_HEADER_VALUE' });
});

test('HTTPError.code is its status: a WebOb-style wrapper that reads .code answers the abort, not a 500', async () => {
  assert.equal(new HTTPError(409, 'taken').code, 409);
  // Ironic's method.expose: any exception becomes a JSON fault with the exception's `code`, else 500.
  const app = createKernel({ logger: false }).use(
    handle((_request, response) => {
      try {
        abort(404, 'Chassis 7 could not be found.');
      } catch (error) {
        response.status_int = (error as { code?: number }).code ?? 500;
        return { faultstring: (error as HTTPError).detail };
      }
    }),
  );
  const res = await app.inject({ url: '/' });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(res.json(), { faultstring: 'Chassis 7 could not be found.' });
  await app.close();
});

test('an HTTPError thrown while a plugin starts is reported as the plugin failing (its numeric code is no HICKORY_ERR_ code)', async () => {
  const aborts = definePlugin({
    name: 'aborts',
    apply() {
      abort(404);
    },
  });
  // A plugin's apply() runs as it is used; what it throws fails ready().
  await assert.rejects(createKernel({ logger: false }).use(aborts).ready(), { code: 'HICKORY_ERR_PLUGIN_FAILED', message: 'Plugin "aborts" failed while starting: 404 Not Found' });
});
