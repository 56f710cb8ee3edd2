import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { resolvePath, splitPath, walk } from '@hickory/dispatch/kit';
import { MAX_PLANNED_PATHS, planOf } from './plan.ts';

const REQUEST = {} as Request;

class Shelf {
  @expose() index() { return 'shelf'; }
  @expose() count() { return 3; }
}
class Dynamic {
  @expose() fixed() { return 'never static'; }
  _route(rest: string[]) { return rest[0] === 'fixed' ? [this.fixed, rest.slice(1)] : undefined; }
}
class Books {
  shelf = new Shelf();
  @expose() index() { return 'books'; }
  @expose() bestsellers() { return []; }
  @expose({ route: 'new-arrivals' }) newArrivals() { return []; }
  _lookup(_id: string, ...rest: string[]) { return [new Shelf(), rest]; }
}
class Root {
  books = new Books();
  dynamic = new Dynamic();
  data = { plain: true };
  @expose() index() { return 'root'; }
  @expose() hours() { return '9-5'; }
}

test('the plan holds the static paths, each answered as the walk answers it, with its trail', async () => {
  const root = new Root();
  const plan = planOf(root);
  assert.deepEqual([...plan.keys()].sort(), [
    '/',
    '/books/',
    '/books/bestsellers',
    '/books/bestsellers/',
    '/books/index',
    '/books/index/',
    '/books/new-arrivals',
    '/books/new-arrivals/',
    '/books/shelf/',
    '/books/shelf/count',
    '/books/shelf/count/',
    '/books/shelf/index',
    '/books/shelf/index/',
    '/hours',
    '/hours/',
    '/index',
    '/index/',
  ]);
  for (const path of plan.keys()) {
    const planned = plan.get(path)!;
    const budget = { lookups: 0, routes: 0, trail: [root] as object[] };
    const walked = await walk(root, splitPath(path), REQUEST, budget);
    assert.ok(walked, path);
    assert.equal(planned.found.fn, walked.fn, path);
    assert.equal(planned.found.controller, walked.controller, path);
    assert.deepEqual([...planned.found.remainder], [...walked.remainder], path);
    assert.equal(planned.found.canonical, walked.canonical, path);
    assert.deepEqual([root, ...planned.trail], budget.trail, path);
  }
  // What is not static still walks: the canonical redirect, `_lookup`, `_route`, escapes.
  assert.equal((await resolvePath(root, '/books', REQUEST))?.canonical, true);
  assert.equal((await resolvePath(root, '/books/7/count', REQUEST))?.fn, Shelf.prototype.count);
  assert.equal((await resolvePath(root, '/dynamic/fixed', REQUEST))?.fn, Dynamic.prototype.fixed);
  assert.equal((await resolvePath(root, '/books/best%73ellers', REQUEST))?.fn, Books.prototype.bestsellers);
});

test('resolvePath fills a guarded or recorded trail from the plan as the walk does', async () => {
  const root = new Root();
  const budget = { lookups: 0, routes: 0, trail: [root] as object[] };
  assert.equal(await resolvePath(root, '/books/shelf/count', REQUEST, budget), planOf(root).get('/books/shelf/count')!.found);
  assert.deepEqual(budget.trail, [root, root.books, root.books.shelf]);
});

test('a cycle of children ends, and a path deeper than 64 segments is left to the walk (414)', async () => {
  class Loop {
    @expose() here() { return 'here'; }
    self: Loop | undefined;
    back: object | undefined;
  }
  class CycleRoot {
    loop = new Loop();
  }
  const root = new CycleRoot();
  root.loop.self = root.loop;
  root.loop.back = root;
  assert.deepEqual([...planOf(root).keys()].sort(), ['/loop/here', '/loop/here/']);
  // The walk still follows the cycle: it is only the plan that does not unroll it.
  assert.equal((await resolvePath(root, '/loop/self/back/loop/here', REQUEST))?.fn, Loop.prototype.here);

  class Leaf {
    @expose() leaf() { return 'leaf'; }
  }
  const chain = (levels: number): object => {
    let controller: object = new Leaf();
    for (let level = levels; level >= 1; level--) controller = { [`s${level}`]: controller };
    return controller;
  };
  const names = (levels: number) => `/${Array.from({ length: levels }, (_, i) => `s${i + 1}`).join('/')}/leaf`;
  // 63 levels and the leaf: 64 segments, in the plan; its trailing-slash twin (65) is not.
  assert.deepEqual([...planOf(chain(63)).keys()], [names(63)]);
  // One level more: nothing within the limit, and the walk answers 414.
  const deep = chain(64);
  assert.equal(planOf(deep).size, 0);
  await assert.rejects(async () => resolvePath(deep, names(64), REQUEST), /more than 64 segments/);
});

test('past the cap the plan stops, and the paths it left out still resolve', async () => {
  class Wide {}
  for (let i = 0; i < MAX_PLANNED_PATHS; i++) {
    const name = `m${i}`;
    Object.defineProperty(Wide.prototype, name, { value: function () { return name; }, writable: true, configurable: true });
    expose()((Wide.prototype as unknown as Record<string, () => string>)[name]!);
  }
  const root = new Wide();
  assert.equal(planOf(root).size, MAX_PLANNED_PATHS);
  const last = `/m${MAX_PLANNED_PATHS - 1}/`;
  assert.equal(planOf(root).has(last), false);
  assert.equal((await resolvePath(root, last, REQUEST))?.fn, (Wide.prototype as unknown as Record<string, Function>)[`m${MAX_PLANNED_PATHS - 1}`]);
});

test('the plan finds a path made anew (as a request parses it) and tells apart paths that share a bucket', () => {
  class Shelf {
    @expose() ab() { return 'ab'; }
    @expose() cb() { return 'cb'; }
    @expose() xyzb() { return 'xyzb'; }
  }
  const plan = planOf({ s: new Shelf() });
  // '/s/ab' and '/s/cb': same length, same middle and last characters — one bucket, two keys.
  const fresh = (path: string) => Buffer.from(path).toString('latin1');
  assert.equal(plan.get(fresh('/s/ab'))?.found.fn, Shelf.prototype.ab);
  assert.equal(plan.get(fresh('/s/cb'))?.found.fn, Shelf.prototype.cb);
  assert.equal(plan.get(fresh('/s/xyzb/'))?.found.fn, Shelf.prototype.xyzb);
  // Same bucket, no such key; and paths no key is as long as.
  assert.equal(plan.get(fresh('/s/bb')), undefined);
  assert.equal(plan.get(''), undefined);
  assert.equal(plan.get(`/${'s'.repeat(0x4000)}`), undefined);
  // A byte past ASCII in a request's path (latin1 from the parser) only picks another bucket.
  assert.equal(plan.get(fresh('/s/a\u00e2')), undefined);
});
