import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel, type Request } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { RestController, restPlugin, type RouteResult } from './index.ts';

class Item {
  constructor(readonly id: string) {}
  @expose() index() { return `item ${this.id}`; }
  @expose() extra(...rest: string[]) { return `extra ${this.id} ${rest.join(',')}`; }
}

test('index is honored: /r/ answers with index (any verb), /r redirects to /r/', async () => {
  class Pages extends RestController {
    @expose() index() { return 'index page'; }
    @expose('json') get_one(id: string) { return { id }; }
  }
  const a = createKernel({ root: { pages: new Pages() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/pages/')).body, 'index page');
  const redirect = await a.inject('/pages');
  assert.equal(redirect.statusCode, 302);
  assert.equal(redirect.headers['location'], '/pages/');
  assert.equal((await a.inject('/pages/4')).body, '{"id":"4"}');
  await a.close();
});

test('_lookup rescues what REST routing cannot answer (a 405 or 404 there)', async () => {
  class Things extends RestController {
    @expose('json') get_all() { return ['all']; }
    _lookup(id: string, ...rest: string[]) { return id === 'none' ? undefined : [new Item(id), rest]; }
  }
  const a = createKernel({ root: { things: new Things() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/things/')).body, '["all"]');
  // No get_one: the 405 is rescued by _lookup.
  assert.equal((await a.inject('/things/5/')).body, 'item 5');
  assert.equal((await a.inject('/things/5/extra/x/y')).body, 'extra 5 x,y');
  assert.equal((await a.inject('/things/none/')).statusCode, 404);
  await a.close();
});

test('_lookup gets the segments a REST handler cannot take; a handler abort(404) stays a 404', async () => {
  class Things extends RestController {
    @expose('json') get_one(id: string) { return id === 'gone' ? abort(404, 'gone') : { id }; }
    _lookup(id: string, ...rest: string[]) { return [new Item(id), rest]; }
  }
  const a = createKernel({ root: { things: new Things() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/things/5')).body, '{"id":"5"}');
  assert.equal((await a.inject('/things/5/extra/z')).body, 'extra 5 z');
  assert.equal((await a.inject('/things/gone')).statusCode, 404);
  await a.close();
});

test('_default answers what REST routing cannot; a missing intermediate id is rescued too', async () => {
  class Children extends RestController {
    @expose('json') get_all(parent: string) { return { parent }; }
  }
  class Things extends RestController {
    children = new Children();
    @expose('json') get_one(id: string) { return { id }; }
    @expose() _default(...rest: string[]) { return `default ${rest.join('/')}`; }
  }
  const a = createKernel({ root: { things: new Things() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject({ method: 'DELETE', url: '/things/5' })).body, 'default 5');
  assert.equal((await a.inject('/things/children/')).body, 'default children');
  assert.equal((await a.inject('/things/1/children/')).body, '{"parent":"1"}');
  await a.close();
});

test('an overriding _route calls super._route and REST routing still happens', async () => {
  const seen: string[] = [];
  class Books extends RestController {
    @expose('json') get_one(id: string) { return { id }; }
    @expose('json') get_all() { return []; }
    @expose() legacy() { return 'legacy page'; }
    override async _route(remainder: readonly string[], request: Request): Promise<RouteResult | undefined> {
      seen.push(remainder.join('/'));
      if (remainder[0] === 'old') return [this.legacy, []];
      if (remainder[0] === 'v1') return super._route(remainder.slice(1), request);
      return super._route(remainder, request);
    }
  }
  const a = createKernel({ root: { books: new Books() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/books/3')).body, '{"id":"3"}');
  assert.equal((await a.inject('/books/v1/3')).body, '{"id":"3"}');
  assert.equal((await a.inject('/books/old')).body, 'legacy page');
  const res = await a.inject({ method: 'DELETE', url: '/books/3' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS');
  assert.deepEqual(seen, ['3', 'v1/3', 'old', '3']);
  await a.close();
});

test('a plain controller held by a resource is reachable below it', async () => {
  class Stats {
    @expose() index() { return 'stats'; }
  }
  class Books extends RestController {
    stats = new Stats();
    @expose('json') get_all() { return []; }
  }
  const a = createKernel({ root: { books: new Books() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/books/stats/')).body, 'stats');
  await a.close();
});

test('REST methods must be exposed: a plain method is never routed', async () => {
  class Hidden extends RestController {
    get_all() { return 'hidden'; }
    @expose() get_one(id: string) { return id; }
  }
  const a = createKernel({ root: { hidden: new Hidden() }, logger: false }).use(restPlugin);
  // Nothing answers GET on the collection: a 405 naming what the resource answers (contract v2).
  const res = await a.inject('/hidden/');
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
  assert.equal((await a.inject('/hidden/x')).body, 'x');
  await a.close();
});

test('names starting with _ or from Object.prototype are never REST targets', async () => {
  class Safe extends RestController {
    @expose('json') get_one(id: string) { return { id }; }
  }
  const a = createKernel({ root: { safe: new Safe() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/safe/constructor')).body, '{"id":"constructor"}');
  assert.equal((await a.inject('/safe/__proto__')).body, '{"id":"__proto__"}');
  const res = await a.inject({ method: 'POST', url: '/safe/1?_method=toString' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS');
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'id'), false);
  await a.close();
});
