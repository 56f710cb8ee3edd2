import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { RestController, restPlugin } from './index.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

class Books extends RestController {
  @expose('json') get_all() { return { all: true }; }
  @expose('json') get_one(id: string) { return id === 'missing' ? abort(404, 'No such book') : { one: id }; }
  @expose() new() { return 'new form'; }
  @expose() edit(id: string) { return `edit ${id}`; }
  @expose('json') post(name: string) { return { created: name }; }
  @expose('json') put(id: string, name: string) { return { put: id, name }; }
  @expose() get_delete(id: string) { return `delete ${id}?`; }
  @expose('json') delete(id: string) { return { deleted: id }; }
}

class Root {
  @expose() index() { return 'root'; }
  books = new Books();
}

function app() {
  return createKernel({ root: new Root(), logger: false }).use(restPlugin);
}

test('GET routes by shape: /r/ → get_all, /r/<id> → get_one, /new, /<id>/edit, /<id>/delete', async () => {
  const a = app();
  assert.equal((await a.inject('/books/')).body, '{"all":true}');
  assert.equal((await a.inject('/books')).body, '{"all":true}');
  assert.equal((await a.inject('/books/7')).body, '{"one":"7"}');
  assert.equal((await a.inject('/books/7/')).body, '{"one":"7"}');
  assert.equal((await a.inject('/books/new')).body, 'new form');
  assert.equal((await a.inject('/books/7/edit')).body, 'edit 7');
  assert.equal((await a.inject('/books/7/delete')).body, 'delete 7?');
  const res = await a.inject('/books/7/edit');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  await a.close();
});

test('POST /r/ → post, PUT /r/<id> → put, DELETE /r/<id> → delete', async () => {
  const a = app();
  const post = await a.inject({ method: 'POST', url: '/books/', headers: FORM, payload: 'name=Dune' });
  assert.equal(post.statusCode, 200);
  assert.equal(post.body, '{"created":"Dune"}');
  const put = await a.inject({ method: 'PUT', url: '/books/7', headers: FORM, payload: 'name=Emma' });
  assert.equal(put.body, '{"put":"7","name":"Emma"}');
  const del = await a.inject({ method: 'DELETE', url: '/books/7' });
  assert.equal(del.body, '{"deleted":"7"}');
  await a.close();
});

test('_method=put|delete on a POST, from the query or the form body', async () => {
  const a = app();
  const q = await a.inject({ method: 'POST', url: '/books/7?_method=put', headers: FORM, payload: 'name=Emma' });
  assert.equal(q.body, '{"put":"7","name":"Emma"}');
  const form = await a.inject({ method: 'POST', url: '/books/7', headers: FORM, payload: '_method=PUT&name=Emma' });
  assert.equal(form.body, '{"put":"7","name":"Emma"}');
  const del = await a.inject({ method: 'POST', url: '/books/7?_method=delete' });
  assert.equal(del.body, '{"deleted":"7"}');
  const formDel = await a.inject({ method: 'POST', url: '/books/7', headers: FORM, payload: '_method=delete' });
  assert.equal(formDel.body, '{"deleted":"7"}');
  await a.close();
});

test('_method on a GET (or asking for GET) → 405 with Allow; one naming no HTTP method → 405; a repeated one → 400', async () => {
  const a = app();
  for (const req of [
    { method: 'GET', url: '/books/7?_method=delete' },
    { method: 'HEAD', url: '/books/7?_method=put' },
    { method: 'POST', url: '/books/7?_method=get' },
  ] as const) {
    const res = await a.inject(req);
    assert.equal(res.statusCode, 405, req.url);
    assert.equal(res.headers['allow'], 'GET, HEAD, PUT, DELETE, OPTIONS');
  }
  const unknown = await a.inject({ method: 'POST', url: '/books/7?_method=frobnicate', headers: { accept: 'application/json' } });
  assert.equal(unknown.statusCode, 405);
  assert.equal(unknown.headers['allow'], 'GET, HEAD, PUT, DELETE, OPTIONS');
  assert.equal(unknown.json().description, 'FROBNICATE (from _method) is not allowed here; allowed: GET, HEAD, PUT, DELETE, OPTIONS.');
  const odd = await a.inject({ method: 'POST', url: '/books/7?_method=%3Cb%3E', headers: { accept: 'application/json' } });
  assert.equal(odd.statusCode, 405);
  assert.equal(odd.json().description, 'The method given by _method is not allowed here; allowed: GET, HEAD, PUT, DELETE, OPTIONS.');
  const twice = await a.inject({ method: 'POST', url: '/books/7?_method=put&_method=delete' });
  assert.equal(twice.statusCode, 400);
  await a.close();
});

test('_method stays in the handler\'s variables (as Pecan leaves it)', async () => {
  class Notes extends RestController {
    @expose('json') put(id: string, kwargs: Record<string, unknown>) { return { id, kwargs }; }
  }
  const a = createKernel({ root: { notes: new Notes() }, logger: false }).use(restPlugin);
  const res = await a.inject({ method: 'POST', url: '/notes/3?_method=put&x=1', headers: FORM, payload: 'y=2' });
  assert.equal(res.body, '{"id":"3","kwargs":{"_method":"put","x":"1","y":"2"}}');
  await a.close();
});

test('HEAD is answered by the GET routing, without a body', async () => {
  const a = app();
  const head = await a.inject({ method: 'HEAD', url: '/books/7' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(head.body, '');
  const all = await a.inject({ method: 'HEAD', url: '/books/' });
  assert.equal(all.statusCode, 200);
  assert.equal(all.body, '');
  await a.close();
});

test('unsupported verbs → 405 with the Allow of that path; OPTIONS → 204 with Allow', async () => {
  const a = app();
  const cases: Array<[string, string, string]> = [
    ['PATCH', '/books/7', 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ['POST', '/books/7', 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ['TRACE', '/books/', 'GET, HEAD, POST, OPTIONS'],
    // Path segments fill positional parameters: put(id, name) could take /7/edit, so PUT is listed.
    ['POST', '/books/7/edit', 'GET, HEAD, PUT, OPTIONS'],
  ];
  for (const [method, url, allow] of cases) {
    const res = await a.inject({ method, url });
    assert.equal(res.statusCode, 405, `${method} ${url}`);
    assert.equal(res.headers['allow'], allow, `${method} ${url}`);
  }
  for (const [url, allow] of [
    ['/books/', 'GET, HEAD, POST, OPTIONS'],
    ['/books/7', 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ['/books/7/edit', 'GET, HEAD, PUT, OPTIONS'],
    ['/books/new', 'GET, HEAD, PUT, DELETE, OPTIONS'],
  ] as const) {
    const res = await a.inject({ method: 'OPTIONS', url });
    assert.equal(res.statusCode, 204, url);
    assert.equal(res.headers['allow'], allow, url);
    assert.equal(res.body, '');
  }
  const json = await a.inject({ method: 'OPTIONS', url: '/books/', headers: { accept: 'application/json' } });
  assert.equal(json.statusCode, 204);
  await a.close();
});

test('a 405 body names the allowed methods; too many segments → 404', async () => {
  const a = app();
  const res = await a.inject({ method: 'PATCH', url: '/books/7', headers: { accept: 'application/json' } });
  assert.deepEqual(res.json(), { code: 405, title: 'Method Not Allowed', description: 'PATCH is not allowed here; allowed: GET, HEAD, PUT, DELETE, OPTIONS.' });
  assert.equal((await a.inject('/books/7/8/9')).statusCode, 404);
  // A verb with no handler at all is a 405 wherever it is sent (as Pecan).
  const patch = await a.inject({ method: 'PATCH', url: '/books/7/8/9' });
  assert.equal(patch.statusCode, 405);
  assert.equal(patch.headers['allow'], 'GET, HEAD, POST, PUT, DELETE, OPTIONS');
  // PUT and DELETE on the collection reach put(id) and delete(id) without the id: a missing parameter.
  for (const method of ['PUT', 'DELETE']) {
    const res = await a.inject({ method, url: '/books/', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 400, method);
    assert.equal(res.json().description, 'Missing required parameter "id".', method);
  }
  assert.equal((await a.inject({ method: 'PUT', url: '/books/7', headers: FORM, payload: '' })).statusCode, 400);
  await a.close();
});

test('a handler abort(404) is the response when nothing rescues it', async () => {
  const a = app();
  const res = await a.inject({ url: '/books/missing', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().description, 'No such book');
  await a.close();
});

test('get serves both the collection and one record when get_all/get_one are absent', async () => {
  class Things extends RestController {
    // A TypeScript `?` leaves no trace at run time: an optional id needs a default.
    @expose('json') get(id: string | undefined = undefined) { return id === undefined ? ['all'] : { id }; }
  }
  const a = createKernel({ root: { things: new Things() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/things/')).body, '["all"]');
  assert.equal((await a.inject('/things/3')).body, '{"id":"3"}');
  const res = await a.inject({ method: 'POST', url: '/things/' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS');
  await a.close();
});

test('other verbs go to a same-named exposed method; options replaces the Allow answer', async () => {
  class Docs extends RestController {
    @expose('json') get_one(id: string) { return { id }; }
    @expose('json') patch(id: string, title: string) { return { patched: id, title }; }
    @expose() trace() { return 'traced'; }
    @expose() options(...ids: string[]) { return `options ${ids.join(',')}`; }
    stats() { return 'not exposed'; }
  }
  const a = createKernel({ root: { docs: new Docs() }, logger: false }).use(restPlugin);
  const patch = await a.inject({ method: 'PATCH', url: '/docs/4', headers: FORM, payload: 'title=T' });
  assert.equal(patch.body, '{"patched":"4","title":"T"}');
  assert.equal((await a.inject({ method: 'TRACE', url: '/docs/' })).body, 'traced');
  assert.equal((await a.inject({ method: 'OPTIONS', url: '/docs/4' })).body, 'options 4');
  const put = await a.inject({ method: 'PUT', url: '/docs/4' });
  assert.equal(put.statusCode, 405);
  assert.equal(put.headers['allow'], 'GET, HEAD, PATCH, OPTIONS');
  assert.equal((await a.inject('/docs/stats/x')).statusCode, 404);
  await a.close();
});

test('a resource with nothing for a path → 405 naming what the resource answers (Pecan, contract v2)', async () => {
  class Empty extends RestController {
    @expose('json') get_all() { return []; }
  }
  const a = createKernel({ root: { empty: new Empty() }, logger: false }).use(restPlugin);
  for (const method of ['GET', 'DELETE', 'PUT'] as const) {
    const one = await a.inject({ method, url: '/empty/1' });
    assert.equal(one.statusCode, 405, method);
    assert.equal(one.headers['allow'], 'GET, HEAD, OPTIONS', method);
  }
  const res = await a.inject({ method: 'DELETE', url: '/empty/' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS');
  await a.close();
});

test('the 64-segment limit counts from the root below a RestController too (64 → routed, 65 → 414)', async () => {
  class Deep extends RestController {
    @expose('json') get_one(...ids: string[]) { return { ids: ids.length }; }
  }
  class DeepRoot {
    deep = new Deep();
  }
  const a = createKernel({ root: new DeepRoot(), logger: false }).use(restPlugin);
  const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join('/');
  const ok = await a.inject(`/deep/${ids(63)}`);
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.body, '{"ids":63}');
  const tooDeep = await a.inject(`/deep/${ids(64)}`);
  assert.equal(tooDeep.statusCode, 414);
  await a.close();
});
