import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';

class Books {
  @expose() index() { return 'books index'; }
  @expose() bestsellers() { return 'bestsellers'; }
}
class Catalog {
  books = new Books();
  @expose() index() { return 'catalog index'; }
}
class Root {
  catalog = new Catalog();
  @expose() index() { return 'root index'; }
  @expose() hours() { return '9-5'; }
  @expose() async later() { await new Promise((r) => setImmediate(r)); return 'async'; }
}

function app(config: Record<string, unknown> = {}) {
  return createKernel({ root: new Root(), logger: false, ...config }).use(dispatchPlugin);
}

test('the catalog tree of the spec routes every path', async () => {
  const a = app();
  const cases: Array<[string, string]> = [
    ['/', 'root index'],
    ['/hours', '9-5'],
    ['/hours/', '9-5'],
    ['/catalog/', 'catalog index'],
    ['/catalog/books/', 'books index'],
    ['/catalog/books/bestsellers', 'bestsellers'],
    ['/catalog/index', 'catalog index'],
    ['/later', 'async'],
  ];
  for (const [url, body] of cases) {
    const res = await a.inject(url);
    assert.equal(res.statusCode, 200, url);
    assert.equal(res.body, body, url);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  }
  assert.equal((await a.inject('/nothing')).statusCode, 404);
  assert.equal((await a.inject('/catalog/nothing')).statusCode, 404);
  assert.equal((await a.inject('/hours/extra')).statusCode, 404);
  await a.close();
});

test('an index reached without its trailing slash redirects: 302 for GET/HEAD, 308 otherwise, query kept', async () => {
  const a = app();
  for (const [method, status] of [['GET', 302], ['HEAD', 302], ['POST', 308], ['PUT', 308], ['DELETE', 308]] as const) {
    const res = await a.inject({ method, url: '/catalog/books?page=2&x=%20' });
    assert.equal(res.statusCode, status, method);
    assert.equal(res.headers['location'], '/catalog/books/?page=2&x=%20');
  }
  const res = await a.inject({ url: '/catalog', headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
  assert.equal(res.headers['location'], '/catalog/');
  await a.close();
});

test('force_canonical: false serves the index without a redirect', async () => {
  const a = app({ force_canonical: false });
  const res = await a.inject('/catalog/books');
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, 'books index');
  await a.close();
});

test('empty segments inside a path do not select anything', async () => {
  const a = app();
  assert.equal((await a.inject('/catalog//books/')).statusCode, 404);
  assert.equal((await a.inject('//hours')).statusCode, 404);
  await a.close();
});

test('inherited exposed methods route; an override without expose hides them', async () => {
  class Base {
    @expose() index() { return 'base'; }
    @expose() about() { return 'about'; }
  }
  class Child extends Base {
    override about() { return 'hidden'; }
  }
  const a = createKernel({ root: new Child(), logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/')).body, 'base');
  assert.equal((await a.inject('/about')).statusCode, 404);
  await a.close();
});

test('controllers written without a compiler: plain objects and prototype assignment', async () => {
  function Legacy(this: Record<string, unknown>) {}
  Legacy.prototype.index = expose()(function index() { return 'legacy'; });
  Legacy.prototype.child = { hello: expose('json')(() => ({ hello: 'world' })) };
  const root = new (Legacy as unknown as new () => object)();
  const a = createKernel({ root, logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/')).body, 'legacy');
  assert.equal((await a.inject('/child/hello')).body, '{"hello":"world"}');
  await a.close();
});

test('a root given as a class is instantiated', async () => {
  const a = createKernel({ root: Root, logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/hours')).body, '9-5');
  await a.close();
});
