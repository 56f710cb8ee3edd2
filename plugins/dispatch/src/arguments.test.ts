import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';

class Root {
  @expose('json') show(id: string, format = 'html') { return { id, format }; }
  @expose('json') args(...segments: string[]) { return segments; }
  @expose('json') mixed(first: string, ...rest: string[]) { return { first, rest }; }
  @expose('json') search(q: string, kwargs: Record<string, unknown>) {
    // No Object.prototype in its chain, yet printable by a template.
    return { q, kwargs, proto: !(kwargs instanceof Object) && `${kwargs}` === '[object Object]' };
  }
  @expose('json') create(name: string) { return { name }; }
  @expose('json') shaped({ length }: string, label = 'x') { return { length, label }; }
  @expose('json') tags(tag: unknown) { return { tag }; }
}

const fakeMultipart = definePlugin({
  name: 'fake-multipart',
  apply(kernel) {
    kernel.hooks.parseBody.for('multipart/form-data').tapPromise('fake-multipart', async (request) => {
      for await (const _chunk of request.raw) {
        // drain
      }
      return Object.assign(Object.create(null), { name: 'from multipart' });
    });
  },
});

function app() {
  return createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(fakeMultipart);
}

test('path segments fill positional parameters, then variables by name; a path value wins', async () => {
  const a = app();
  assert.deepEqual((await a.inject('/show/7')).json(), { id: '7', format: 'html' });
  assert.deepEqual((await a.inject('/show/7/json')).json(), { id: '7', format: 'json' });
  assert.deepEqual((await a.inject('/show?id=8&format=xml')).json(), { id: '8', format: 'xml' });
  assert.deepEqual((await a.inject('/show/7?id=8')).json(), { id: '7', format: 'html' });
  assert.deepEqual((await a.inject('/show/7/')).json(), { id: '7', format: 'html' });
  await a.close();
});

test('a rest parameter takes the remaining segments; too many segments without one → 404', async () => {
  const a = app();
  assert.deepEqual((await a.inject('/args/a/b/c')).json(), ['a', 'b', 'c']);
  assert.deepEqual((await a.inject('/args')).json(), []);
  assert.deepEqual((await a.inject('/args/a%2Fb/c')).json(), ['a/b', 'c']);
  assert.deepEqual((await a.inject('/mixed/1/2/3')).json(), { first: '1', rest: ['2', '3'] });
  assert.equal((await a.inject('/show/1/2/3')).statusCode, 404);
  await a.close();
});

test('kwargs gets the variables no named parameter takes, inheriting nothing from Object.prototype; repeated keys give arrays', async () => {
  const a = app();
  const res = await a.inject('/search?q=dune&page=2&tag=a&tag=b&__proto__=x&constructor=y');
  assert.equal(res.body, '{"q":"dune","kwargs":{"page":"2","tag":["a","b"],"__proto__":"x","constructor":"y"},"proto":true}');
  assert.equal(({} as Record<string, unknown>)['constructor'], Object);
  assert.deepEqual((await a.inject('/tags?tag=a&tag=b')).json(), { tag: ['a', 'b'] });
  await a.close();
});

test('a missing required parameter is 400 naming it', async () => {
  const a = app();
  const res = await a.inject({ url: '/create', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().description, 'Missing required parameter "name".');
  const shaped = await a.inject({ url: '/shaped', headers: { accept: 'application/json' } });
  assert.equal(shaped.statusCode, 400);
  assert.equal(shaped.json().description, 'Missing required parameter #1.');
  assert.deepEqual((await a.inject('/shaped/abc')).json(), { length: 3, label: 'x' });
  await a.close();
});

test('variables come from urlencoded, JSON and multipart bodies, for any method', async () => {
  const a = app();
  const form = await a.inject({
    method: 'POST',
    url: '/create',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'name=Dune',
  });
  assert.deepEqual(form.json(), { name: 'Dune' });
  const put = await a.inject({ method: 'PUT', url: '/create', headers: { 'content-type': 'application/json' }, payload: '{"name":"Emma"}' });
  assert.deepEqual(put.json(), { name: 'Emma' });
  const multipart = await a.inject({
    method: 'POST',
    url: '/create',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    payload: '--x--\r\n',
  });
  assert.deepEqual(multipart.json(), { name: 'from multipart' });
  const both = await a.inject({ method: 'POST', url: '/tags?tag=q', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'tag=f' });
  assert.deepEqual(both.json(), { tag: ['q', 'f'] });
  const text = await a.inject({ method: 'POST', url: '/create?name=query', headers: { 'content-type': 'text/plain' }, payload: 'raw' });
  assert.deepEqual(text.json(), { name: 'query' });
  await a.close();
});
