// REST's shortcut (plugins/rest/src/rest-plan.ts, taken by dispatch's walk in place of the
// generic `_route` handling): the edge cases of its shape behave as the full routing does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, type Request } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { recordWalks, walkedControllers } from '@hickory/dispatch/kit';
import { hooksPlugin, secure, SecureController } from '@hickory/hooks';
import { RestController, restPlugin } from '@hickory/rest';

const JSON_ACCEPT = { accept: 'application/json' };

class Books extends RestController {
  @expose('json') get_all() { return { all: true }; }
  @expose('json') get_one(id: string) { return { one: id }; }
  @expose('json') put(id: string) { return { put: id }; }
}

function kernel(root: object) {
  return createKernel({ root, logger: false }).use(hooksPlugin).use(restPlugin);
}

test('a subclass that overrides `_route` is routed by its override', async () => {
  class Legacy extends Books {
    override _route(remainder: readonly string[], request: Request) {
      return super._route(remainder[0] === 'old' ? remainder.slice(1) : ['legacy', ...remainder].slice(1, 2), request);
    }
  }
  const app = kernel({ legacy: new Legacy() });
  assert.equal((await app.inject('/legacy/old/7')).body, '{"one":"7"}');
  // Every other path is cut to its first segment by the override.
  assert.equal((await app.inject('/legacy/7/8')).body, '{"one":"7"}');
  await app.close();
});

test('a get_one whose arity does not fit is rescued by `_lookup`, then `_default`; without either it is a 404', async () => {
  class Pages {
    constructor(readonly book: string) {}
    @expose() pages() { return `pages of ${this.book}`; }
  }
  class WithLookup extends Books {
    _lookup(book: string, ...rest: string[]) { return book === 'none' ? undefined : [new Pages(book), rest]; }
    _default(...rest: string[]) { return `default ${rest.join('/')}`; }
  }
  const app = kernel({ books: new WithLookup(), plain: new Books() });
  assert.equal((await app.inject('/books/7')).body, '{"one":"7"}');
  assert.equal((await app.inject('/books/7/pages/')).body, 'pages of 7');
  const rescued = await app.inject('/books/none/x');
  assert.equal(rescued.statusCode, 200);
  assert.equal(rescued.body, 'default none/x');
  assert.equal((await app.inject('/plain/7/8')).statusCode, 404);
  await app.close();
});

test('HEAD is routed as GET, without a body; OPTIONS answers 204 with Allow, or the options method', async () => {
  class WithOptions extends Books {
    @expose('json') options(id: string | null = null) { return { options: id }; }
  }
  const app = kernel({ books: new Books(), own: new WithOptions() });
  const get = await app.inject({ url: '/books/7', headers: JSON_ACCEPT });
  const head = await app.inject({ method: 'HEAD', url: '/books/7', headers: JSON_ACCEPT });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
  assert.equal(head.headers['content-type'], get.headers['content-type']);
  assert.equal(head.headers['content-length'], get.headers['content-length']);
  const options = await app.inject({ method: 'OPTIONS', url: '/books/7' });
  assert.equal(options.statusCode, 204);
  assert.equal(options.headers['allow'], 'GET, HEAD, PUT, OPTIONS');
  assert.equal((await app.inject({ method: 'OPTIONS', url: '/own/7' })).body, '{"options":"7"}');
  const refused = await app.inject({ method: 'DELETE', url: '/books/7' });
  assert.equal(refused.statusCode, 405);
  assert.equal(refused.headers['allow'], 'GET, HEAD, PUT, OPTIONS');
  await app.close();
});

test("a nested resource gets its parents' ids first; named right after the parent it is reached without them", async () => {
  class Chapters extends RestController {
    @expose('json') get_all(book: string | null = null) { return { chapters: book }; }
    @expose('json') get_one(book: string, id: string) { return { book, chapter: id }; }
  }
  class Shelf extends Books {
    chapters = new Chapters();
  }
  const app = kernel({ books: new Shelf() });
  assert.equal((await app.inject('/books/7')).body, '{"one":"7"}');
  assert.equal((await app.inject('/books/7/chapters/2')).body, '{"book":"7","chapter":"2"}');
  assert.equal((await app.inject('/books/7/chapters/')).body, '{"chapters":"7"}');
  assert.equal((await app.inject('/books/chapters/')).body, '{"chapters":null}');
  await app.close();
});

test('a guarded resource is checked before its handler, by a secure() child, a SecureController or a secured method', async () => {
  const checked: string[] = [];
  const allow = (request: Request) => request.headers['x-user'] === 'staff';
  class Admin extends SecureController {
    static override check_permissions(request: Request) {
      checked.push('admin');
      return allow(request);
    }
    books = new Books();
  }
  class Guarded extends RestController {
    @secure((request: Request) => {
      checked.push('get_one');
      return allow(request);
    })
    @expose('json')
    get_one(id: string) { return { guarded: id }; }
  }
  const app = kernel({
    secured: secure(new Books(), (request: Request) => {
      checked.push('secured');
      return allow(request);
    }),
    admin: new Admin(),
    guarded: new Guarded(),
  });
  for (const [url, body] of [['/secured/7', '{"one":"7"}'], ['/admin/books/7', '{"one":"7"}'], ['/guarded/7', '{"guarded":"7"}']] as const) {
    assert.equal((await app.inject(url)).statusCode, 401, url);
    const allowed = await app.inject({ url, headers: { 'x-user': 'staff' } });
    assert.equal(allowed.statusCode, 200, url);
    assert.equal(allowed.body, body);
  }
  assert.deepEqual(checked, ['secured', 'secured', 'admin', 'admin', 'get_one', 'get_one']);
  await app.close();
});

test('a recorded walk names the resource, for the shortcut as for the full routing', async () => {
  const seen: string[] = [];
  const observer = definePlugin({
    name: 'observer',
    apply(k) {
      k.hooks.ready.tap('observer', () => recordWalks(k));
      k.hooks.beforeHandle.tap('observer', (_lookup, request: Request) => {
        seen.push(walkedControllers(request).map((c) => c.constructor.name).join('>'));
        return undefined;
      });
    },
  });
  class Root {
    books = new Books();
  }
  const app = kernel(new Root()).use(observer);
  assert.equal((await app.inject('/books/7')).body, '{"one":"7"}');
  assert.equal((await app.inject({ method: 'PUT', url: '/books/7' })).body, '{"put":"7"}');
  assert.deepEqual(seen, ['Root>Books', 'Root>Books']);
  await app.close();
});
