import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request } from '@hickory/core';
import { expose, route } from '@hickory/dispatch';
import { directRoute, routeTableOf, routingState } from '@hickory/dispatch/kit';
import { RestController } from './index.ts';
import { routeAtOnce } from './rest-plan.ts';

class Books extends RestController {
  @expose('json') get_all() { return []; }
  @expose('json') get_one(id: string) { return { id }; }
  @expose() edit(id: string) { return `edit ${id}`; }
  @expose('json') post() { return {}; }
  @expose('json') put(id: string) { return { id }; }
  @expose('json') patch(id: string) { return { id }; }
}

// What routeAtOnce reads of a request.
function request(method: string, path: string, more: Partial<Record<'query_string' | 'media_type', string>> = {}): Request {
  const query = more.query_string ?? '';
  return { method, path, query_string: query, GET: Object.fromEntries(new URLSearchParams(query)), media_type: more.media_type, use_context_locals: true } as unknown as Request;
}

function route_(controller: object, remainder: string[], req: Request) {
  const found = routeAtOnce(controller, routeTableOf(controller)!, remainder, req);
  return found === undefined ? undefined : { fn: (found.fn as Function).name, remainder: found.remainder, same: found.controller === controller };
}

test("RestController's own `_route` carries the shortcut; an override does not", () => {
  class Legacy extends Books {
    override _route(remainder: readonly string[], req: Request) { return super._route(remainder, req); }
  }
  assert.equal((RestController.prototype._route as { [directRoute]?: unknown })[directRoute], routeAtOnce);
  assert.equal(directRoute in Legacy.prototype._route, false);
});

test('each verb by shape: the collection, an id, a page; HEAD as GET; other verbs by their method', () => {
  const books = new Books();
  assert.deepEqual(route_(books, ['7'], request('GET', '/books/7')), { fn: 'get_one', remainder: ['7'], same: true });
  assert.deepEqual(route_(books, ['7', ''], request('HEAD', '/books/7/')), { fn: 'get_one', remainder: ['7'], same: true });
  assert.deepEqual(route_(books, [], request('GET', '/books')), { fn: 'get_all', remainder: [], same: true });
  assert.deepEqual(route_(books, ['7', 'edit'], request('GET', '/books/7/edit')), { fn: 'edit', remainder: ['7'], same: true });
  assert.deepEqual(route_(books, [], request('POST', '/books/')), { fn: 'post', remainder: [], same: true });
  assert.deepEqual(route_(books, ['7'], request('PUT', '/books/7', { media_type: 'application/x-www-form-urlencoded' })), { fn: 'put', remainder: ['7'], same: true });
  assert.deepEqual(route_(books, ['7'], request('PATCH', '/books/7')), { fn: 'patch', remainder: ['7'], same: true });
  assert.deepEqual(route_(books, ['7'], request('POST', '/books/7', { query_string: '_method=put' })), { fn: 'put', remainder: ['7'], same: true });
});

test('the full routing decides whatever the plan cannot answer at once, and nothing is changed', () => {
  const books = new Books();
  // A form POST may carry `_method`; a refused `_method`; no method for the verb (405); POST below
  // the collection; OPTIONS without an `options` method (the Allow answer).
  assert.equal(route_(books, ['7'], request('POST', '/books/7', { media_type: 'application/x-www-form-urlencoded' })), undefined);
  assert.equal(route_(books, ['7'], request('GET', '/books/7', { query_string: '_method=delete' })), undefined);
  assert.equal(route_(books, ['7'], request('DELETE', '/books/7')), undefined);
  assert.equal(route_(books, ['7'], request('POST', '/books/7')), undefined);
  assert.equal(route_(books, ['7'], request('OPTIONS', '/books/7')), undefined);
  // A parent's hand-over for another path is left for `_route` to take (and drop).
  const handed = request('GET', '/books/7');
  routingState(handed).giveParentIds(books, '/authors/1/books/7', ['1']);
  assert.equal(route_(books, ['7'], handed), undefined);
  assert.notEqual(routingState(handed).parentIds, undefined);
});

test("a parent's ids come first, and are taken", () => {
  const books = new Books();
  const req = request('GET', '/authors/1/books/7');
  routingState(req).giveParentIds(books, '/authors/1/books/7', ['1']);
  assert.deepEqual(route_(books, ['7'], req), { fn: 'get_one', remainder: ['1', '7'], same: true });
  assert.equal(routingState(req).parentIds, undefined);
});

test('arguments that do not fit go to the full routing only where `_lookup` or `_default` may rescue', () => {
  class WithLookup extends Books {
    _lookup(...rest: string[]) { return rest.length > 0 ? undefined : undefined; }
  }
  assert.equal(route_(new WithLookup(), ['7', '8'], request('GET', '/books/7/8')), undefined);
  assert.deepEqual(route_(new WithLookup(), ['7'], request('GET', '/books/7')), { fn: 'get_one', remainder: ['7'], same: true });
  // Without a rescue, get_one is chosen as `_route` chooses it (the call then answers 404).
  assert.deepEqual(route_(new Books(), ['7', '8'], request('GET', '/books/7/8')), { fn: 'get_one', remainder: ['7', '8'], same: true });
});

test('a nested resource or a custom action named in the path, and a mounted method, take the full routing', () => {
  class Chapters extends RestController {
    @expose('json') get_one(book: string, id: string) { return { book, id }; }
  }
  class Nesting extends Books {
    static override _custom_actions = { checkout: ['POST'] };
    chapters = new Chapters();
    @expose('json') checkout(id: string) { return { id }; }
  }
  const nesting = new Nesting();
  assert.equal(route_(nesting, ['7', 'chapters'], request('GET', '/books/7/chapters')), undefined);
  assert.equal(route_(nesting, ['7', 'checkout'], request('POST', '/books/7/checkout')), undefined);
  assert.deepEqual(route_(nesting, ['7'], request('GET', '/books/7')), { fn: 'get_one', remainder: ['7'], same: true });
  class Shelf {
    @expose('json') find(id: string) { return { id }; }
  }
  class Mounted extends RestController {}
  route(Mounted, 'get_one', Shelf.prototype.find);
  assert.equal(route_(new Mounted(), ['7'], request('GET', '/books/7')), undefined);
});
