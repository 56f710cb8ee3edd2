import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { multipartPlugin } from '@hickory/multipart';
import { RestController, restPlugin } from '@hickory/rest';

class Books extends RestController {
  @expose('json') put(id: string, name: string, kwargs: Record<string, unknown>) { return { put: id, name, rest: Object.keys(kwargs) }; }
  @expose('json') post(name: string) { return { created: name }; }
  @expose('json') delete(id: string) { return { deleted: id }; }
}

function multipart(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  const boundary = '----hickory-rest-test';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

test('_method in a multipart form stands for PUT/DELETE (with the multipart plugin), and stays in the variables (as Pecan)', async () => {
  const app = createKernel({ root: { books: new Books() }, logger: false }).use(restPlugin).use(multipartPlugin);
  const put = await app.inject({ method: 'POST', url: '/books/4', ...multipart({ _method: 'put', name: 'Dune', extra: 'x' }) });
  assert.equal(put.statusCode, 200);
  assert.equal(put.body, '{"put":"4","name":"Dune","rest":["_method","extra"]}');
  const del = await app.inject({ method: 'POST', url: '/books/4', ...multipart({ _method: 'DELETE' }) });
  assert.equal(del.body, '{"deleted":"4"}');
  const post = await app.inject({ method: 'POST', url: '/books/', ...multipart({ name: 'Emma' }) });
  assert.equal(post.body, '{"created":"Emma"}');
  await app.close();
});

test('a JSON body is not read for _method: the POST stays a POST', async () => {
  const app = createKernel({ root: { books: new Books() }, logger: false }).use(restPlugin);
  const res = await app.inject({ method: 'POST', url: '/books/', headers: { 'content-type': 'application/json' }, payload: '{"_method":"delete","name":"Dune"}' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '{"created":"Dune"}');
  const tooBig = await app.inject({ method: 'POST', url: '/books/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `name=${'x'.repeat(2 * 1024 * 1024)}` });
  assert.equal(tooBig.statusCode, 413);
  await app.close();
});
