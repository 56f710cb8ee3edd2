import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abort, CORE_ERRORS, createKernel, HickoryError, HTTPError } from './index.ts';
import { coreError, tableError } from './errors.ts';
import { describe } from './http-error.ts';
import { capture, handle, routes } from './fixtures/harness.ts';

test('CORE_ERRORS has exactly 36 codes, each HICKORY_ERR_* with a non-empty message', () => {
  const codes = Object.keys(CORE_ERRORS);
  assert.equal(codes.length, 36);
  assert.equal(Object.isFrozen(CORE_ERRORS), true);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_[A-Z_]+$/);
    const message = CORE_ERRORS[code as keyof typeof CORE_ERRORS];
    assert.ok(message.trim().length > 10, code);
  }
});

test('tableError fills %s in order and keeps an Error argument as the cause', () => {
  const cause = new Error('inner');
  const error = tableError({ X_ONE: 'a %s b %s' }, 'X_ONE', 1, cause);
  assert.ok(error instanceof HickoryError);
  assert.equal(error.code, 'X_ONE');
  assert.equal(error.message, 'a 1 b Error: inner');
  assert.equal(error.cause, cause);
  assert.equal(coreError('HICKORY_ERR_STATUS', 7).message, 'Invalid HTTP status 7: a status is an integer from 100 to 599.');
});

test('abort() throws an HTTPError for every status from 400 to 599', () => {
  for (let status = 400; status <= 599; status++) {
    assert.throws(() => abort(status), (e: HTTPError) => e instanceof HTTPError && e.status === status && e.title.length > 0);
  }
  for (const bad of [200, 302, 399, 600, 404.5, Number.NaN]) {
    assert.throws(() => abort(bad), { code: 'HICKORY_ERR_ABORT_STATUS' });
  }
  assert.throws(() => new HTTPError(200), { code: 'HICKORY_ERR_ABORT_STATUS' });
  assert.throws(() => abort(400, 'x', { 'X-A': 'a\r\nb' }), { code: 'HICKORY_ERR_HEADER_VALUE' });
  const error = new HTTPError(404, 'No book 7', { 'X-A': 'b' });
  assert.deepEqual(error.toJSON(), { code: 404, title: 'Not Found', description: 'No book 7' });
  assert.equal(describe(new HTTPError(503, 'db password is hunter2')), 'The server could not complete the request.');
  assert.equal(new HTTPError(599).title, 'Status 599');
});

test('abort() with an invalid status is a developer error → 500, logged', async () => {
  const logger = capture();
  const app = createKernel({ logger }).use(handle((req) => abort(Number(req.path.slice(1)))));
  for (const status of ['302', '600', '200']) {
    const res = await app.inject(`/${status}`);
    assert.equal(res.statusCode, 500, status);
  }
  assert.match(logger.text(), /abort\(302\)/);
  await app.close();
});

test('default error bodies: JSON for clients preferring JSON, small HTML otherwise', async () => {
  const app = createKernel({ logger: false }).use(handle(() => abort(404, 'No book <7>')));
  let res = await app.inject({ url: '/', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.body, '{"code":404,"title":"Not Found","description":"No book <7>"}');
  res = await app.inject({ url: '/', headers: { accept: 'text/html,application/json;q=0.9' } });
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(
    res.body,
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>404 Not Found</title></head>' +
      '<body><h1>404 Not Found</h1><p>No book &lt;7&gt;</p></body></html>\n',
  );
  res = await app.inject({ url: '/' });
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  res = await app.inject({ url: '/', headers: { accept: '*/*' } });
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  res = await app.inject({ url: '/', headers: { accept: 'application/*' } });
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  await app.close();
});

test('5xx bodies never show a stack, a message or a detail', async () => {
  const secret = 'password=hunter2';
  const app = createKernel({ logger: false }).use(
    routes({
      '/throw': () => {
        throw new Error(secret);
      },
      '/reject': () => Promise.reject(new TypeError(secret)),
      '/abort': () => abort(503, secret),
      '/string': () => {
        throw secret;
      },
    }),
  );
  for (const path of ['/throw', '/reject', '/abort', '/string']) {
    for (const accept of ['application/json', 'text/html']) {
      const res = await app.inject({ url: path, headers: { accept } });
      assert.equal(res.statusCode, path === '/abort' ? 503 : 500, path);
      assert.doesNotMatch(res.body, /hunter2|Error:|at \w|\.ts:/, `${path} ${accept}`);
      assert.match(res.body, /The server could not complete the request\./);
    }
  }
  const json = await app.inject({ url: '/throw', headers: { accept: 'application/json' } });
  assert.deepEqual(json.json(), { code: 500, title: 'Internal Server Error', description: 'The server could not complete the request.' });
  await app.close();
});

test("a non-HTTP error sets environ['hickory.original_exception'] to a generic 500 and logs the real error", async () => {
  const logger = capture();
  let stored: unknown;
  const app = createKernel({ logger, errors: { 500: '/oops' } }).use(
    routes({
      '/fail': () => {
        throw new RangeError('real cause');
      },
      '/oops': (req) => {
        stored = req.environ['hickory.original_exception'];
        return 'error page';
      },
    }),
  );
  const res = await app.inject('/fail');
  assert.equal(res.statusCode, 500);
  assert.equal(res.body, 'error page');
  assert.ok(stored instanceof HTTPError);
  assert.equal((stored as HTTPError).status, 500);
  assert.match(logger.text(), /GET \/fail failed real cause/);
  await app.close();
});

test('a request_cls constructor that throws answers 500 and keeps the server up', async () => {
  const { Request } = await import('./index.ts');
  class Fragile extends Request {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args);
      if (this.path === '/break') throw new Error('bad subclass');
    }
  }
  const logger = capture();
  const app = createKernel({ logger, request_cls: Fragile }).use(handle(() => 'fine'));
  const { url } = await app.listen({ port: 0 });
  const res = await fetch(`${url}/break`);
  assert.equal(res.status, 500);
  assert.equal(res.statusText, 'Internal Server Error');
  assert.match(await res.text(), /<title>500 Internal Server Error<\/title>/);
  assert.equal(await (await fetch(`${url}/ok`)).text(), 'fine');
  assert.match(logger.text(), /bad subclass/);
  await app.close();
});
