import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose, when } from '@hickory/dispatch';

class Root {
  @expose() index() { return 'root'; }
  @expose({ generic: true, template: 'json' }) items() { return { method: 'GET' }; }
  @when('items', { method: 'POST', template: 'json' }) items_post(name: string) { return { created: name }; }
  @when('items', { method: ['PUT', 'patch'] }) items_put() { return { method: 'PUT or PATCH' }; }
  @when('items', { method: 'DELETE', content_type: 'text/plain' }) items_delete() { return 'deleted'; }
  @expose({ generic: true }) page() { return 'page'; }
  @expose() any() { return 'any method'; }
}

function app() {
  return createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
}

test('a generic method answers GET and HEAD; when() handlers their methods', async () => {
  const a = app();
  assert.equal((await a.inject('/items')).body, '{"method":"GET"}');
  const head = await a.inject({ method: 'HEAD', url: '/items' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
  const post = await a.inject({ method: 'POST', url: '/items', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=x' });
  assert.equal(post.body, '{"created":"x"}');
  assert.equal((await a.inject({ method: 'PUT', url: '/items' })).body, '{"method":"PUT or PATCH"}'); // inherits the json rendering
  assert.equal((await a.inject({ method: 'PATCH', url: '/items' })).body, '{"method":"PUT or PATCH"}');
  const del = await a.inject({ method: 'DELETE', url: '/items' });
  assert.equal(del.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(del.body, 'deleted');
  await a.close();
});

test('other methods → 405 with Allow; OPTIONS → 204 with Allow', async () => {
  const a = app();
  const res = await a.inject({ method: 'TRACE', url: '/items' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers['allow'], 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  const options = await a.inject({ method: 'OPTIONS', url: '/items' });
  assert.equal(options.statusCode, 204);
  assert.equal(options.headers['allow'], 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  assert.equal(options.body, '');
  const page = await a.inject({ method: 'POST', url: '/page' });
  assert.equal(page.statusCode, 405);
  assert.equal(page.headers['allow'], 'GET, HEAD, OPTIONS');
  await a.close();
});

test('when() handlers are not addressable by their own names; a non-generic method accepts any method', async () => {
  const a = app();
  for (const url of ['/items_post', '/items_put', '/items_delete']) {
    assert.equal((await a.inject({ method: 'POST', url })).statusCode, 404, url);
  }
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const) {
    assert.equal((await a.inject({ method, url: '/any' })).body, 'any method', method);
  }
  await a.close();
});

test('when() naming no generic method, or two handlers for one method, fail at ready()', async () => {
  class Orphan {
    @expose() index() { return 'x'; }
    @when('index', { method: 'POST' }) post() { return 'y'; }
  }
  await assert.rejects(
    createKernel({ root: new Orphan(), logger: false }).use(dispatchPlugin).ready(),
    /Orphan\.post: when\("index"\) names no generic method of that class: expose "index" with @expose\(\{ generic: true \}\)/,
  );
  class Twice {
    @expose({ generic: true }) index() { return 'x'; }
    @when('index', { method: 'POST' }) a() { return 'a'; }
    @when('index', { method: 'post' }) b() { return 'b'; }
  }
  await assert.rejects(
    createKernel({ root: new Twice(), logger: false }).use(dispatchPlugin).ready(),
    /Twice: two when\(\) handlers for POST on "index" \(a and b\)/,
  );
});

test('when(…, { body: true }) reads an OPTIONS body for its handler; a GET body needs expose({ body: true })', async () => {
  class Search {
    @expose({ generic: true, template: 'json' }) find(q = '') { return { q }; }
    @when('find', { method: 'OPTIONS', template: 'json', body: true }) find_options(q = '') { return { q }; }
    @expose({ generic: true, template: 'json', body: true }) query(q = '') { return { q }; }
  }
  const a = createKernel({ root: new Search(), logger: false }).use(dispatchPlugin);
  const send = (method: 'GET' | 'OPTIONS', url: string) => a.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: '{"q":"dune"}' });
  assert.equal((await send('GET', '/find')).body, '{"q":""}');
  assert.equal((await send('OPTIONS', '/find')).body, '{"q":"dune"}');
  assert.equal((await send('GET', '/query')).body, '{"q":"dune"}');
  assert.throws(() => when('find', { method: 'POST', body: 'yes' as unknown as boolean }), /`body` must be true, false, or a schema of the body/);
  await a.close();
});
