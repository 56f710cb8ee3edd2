import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { expose, route } from '@hickory/dispatch';
import { RestController, restPlugin } from './index.ts';

class Library extends RestController {
  static override _custom_actions = { checkout: ['POST'], 'check-in': ['POST'] };
  @expose('json') get_one(id: string) { return { id }; }
  @expose('json') checkout(id: string) { return { checked_out: id }; }
  @expose('json') checkIn(id: string) { return { checked_in: id }; }
  @expose({ template: 'json', route: 'return-all' }) returnAll() { return { returned: 'all' }; }
}
route('check-in', Library.prototype.checkIn);
Object.assign(Library, { _custom_actions: { ...Library._custom_actions, 'return-all': ['POST'] } });

function app() {
  return createKernel({ root: { library: new Library() }, logger: false }).use(restPlugin);
}

test('POST /r/<id>/checkout calls checkout(id)', async () => {
  const a = app();
  const res = await a.inject({ method: 'POST', url: '/library/7/checkout' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '{"checked_out":"7"}');
  await a.close();
});

test('a custom action answers only its listed verbs; others → 405 with Allow', async () => {
  const a = app();
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD']) {
    const res = await a.inject({ method, url: '/library/7/checkout' });
    assert.equal(res.statusCode, 405, method);
    assert.equal(res.headers['allow'], 'POST, OPTIONS', method);
  }
  const options = await a.inject({ method: 'OPTIONS', url: '/library/7/checkout' });
  assert.equal(options.statusCode, 204);
  assert.equal(options.headers['allow'], 'POST, OPTIONS');
  await a.close();
});

test('an action name with a dash works through an explicit route', async () => {
  const a = app();
  const res = await a.inject({ method: 'POST', url: '/library/7/check-in' });
  assert.equal(res.body, '{"checked_in":"7"}');
  assert.equal((await a.inject({ method: 'POST', url: '/library/return-all' })).body, '{"returned":"all"}');
  // Its member name is not a route: POST has no handler there (405, as Pecan), GET's cannot take it.
  assert.equal((await a.inject({ method: 'POST', url: '/library/7/checkIn' })).statusCode, 405);
  assert.equal((await a.inject('/library/7/checkIn')).statusCode, 404);
  await a.close();
});

test('_method=put reaches an action listing PUT (its name first, as Pecan); a GET action brings HEAD; a collection action', async () => {
  class Carts extends RestController {
    static override _custom_actions = { empty: ['PUT'], stats: ['GET'] };
    @expose('json') empty(id: string) { return { emptied: id }; }
    @expose('json') stats(...ids: string[]) { return { stats: ids }; }
  }
  const a = createKernel({ root: { carts: new Carts() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject({ method: 'POST', url: '/carts/empty/3?_method=put' })).body, '{"emptied":"3"}');
  assert.equal((await a.inject({ method: 'PUT', url: '/carts/empty/3' })).body, '{"emptied":"3"}');
  // The name last is GET and POST's place: PUT there → 405 naming what the resource answers.
  const last = await a.inject({ method: 'PUT', url: '/carts/3/empty' });
  assert.equal(last.statusCode, 405);
  assert.equal(last.headers['allow'], 'GET, HEAD, PUT, OPTIONS');
  assert.equal((await a.inject('/carts/stats')).body, '{"stats":[]}');
  assert.equal((await a.inject('/carts/3/stats')).body, '{"stats":["3"]}');
  const head = await a.inject({ method: 'HEAD', url: '/carts/stats' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
  const post = await a.inject({ method: 'POST', url: '/carts/3/stats' });
  assert.equal(post.statusCode, 405);
  assert.equal(post.headers['allow'], 'GET, HEAD, OPTIONS');
  await a.close();
});

test('an action whose verb is also an HTTP method is not reached by that verb', async () => {
  const a = app();
  // CHECKOUT is an HTTP method, but checkout is an action (POST only), not a verb handler.
  const res = await a.inject({ method: 'CHECKOUT', url: '/library/7' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS');
  await a.close();
});
