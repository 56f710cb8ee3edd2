import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { resolvePath, splitPath, walk } from '@hickory/dispatch/kit';

test('resolvePath gives the same answer as the full walk, fast path or not', async () => {
  class Leaf {
    @expose() index() { return 'leaf'; }
    @expose() show(id: string) { return id; }
  }
  class Root {
    leaf = new Leaf();
    data = { plain: true };
    @expose() index() { return 'root'; }
    @expose() hours() { return '9-5'; }
    _default(...rest: string[]) { return rest.join('/'); }
  }
  const root = new Root();
  const request = {} as Request;
  for (const path of ['/', '/hours', '/hours/', '/leaf', '/leaf/', '/leaf/show', '/leaf/show/7', '/leaf/sh%6Fw/7', '/nothing/x', '/data/plain', '/hours/x/']) {
    const fast = await resolvePath(root, path, request);
    const full = await walk(root, splitPath(path), request);
    assert.deepEqual(
      fast && { fn: fast.fn, remainder: [...fast.remainder], canonical: fast.canonical, controller: fast.controller },
      full && { fn: full.fn, remainder: [...full.remainder], canonical: full.canonical, controller: full.controller },
      path,
    );
  }
  await assert.rejects(async () => resolvePath(root, `/${'leaf/'.repeat(70)}`, request), /414|more than 64 segments/);
  for (const path of ['/leaf//show', '//', '/leaf//', '//leaf/']) {
    await assert.rejects(async () => resolvePath(root, path, request), (e: Error & { status: number }) => e.status === 404, path);
  }
});

test('resolvePath answers a path it resolved before the same way, and a recorded walk still records its controllers', async () => {
  class Leaf {
    @expose() show() { return 'leaf'; }
  }
  class Root {
    leaf = new Leaf();
    @expose() hours() { return '9-5'; }
  }
  const root = new Root();
  const request = {} as Request;
  const first = await resolvePath(root, '/leaf/show', request);
  const again = await resolvePath(root, '/leaf/show', request);
  assert.equal(again, first);
  assert.equal(first?.controller, root.leaf);
  assert.equal(first?.fn, Leaf.prototype.show);
  // A trail (recorded walks, guards) is filled on every request, remembered path or not.
  const budget = { lookups: 0, routes: 0, trail: [root] as object[] };
  const traced = await resolvePath(root, '/leaf/show', request, budget);
  assert.equal(traced?.fn, Leaf.prototype.show);
  assert.deepEqual(budget.trail, [root, root.leaf]);
  // Another root keeps its own answers.
  const other = new Root();
  assert.equal((await resolvePath(other, '/leaf/show', request))?.controller, other.leaf);
  assert.equal((await resolvePath(root, '/leaf/show', request))?.controller, root.leaf);
});

test('splitPath splits on "/", refuses an empty inner segment with 404 and more than the limit with 414', () => {
  assert.deepEqual(splitPath('/'), ['']);
  assert.deepEqual(splitPath('/a/b/'), ['a', 'b', '']);
  for (const path of ['/a//b', '//', '/a//', '//a/', '/a///index']) {
    assert.throws(() => splitPath(path), (e: Error & { status: number; detail: string }) => e.status === 404 && e.detail === 'The path has an empty segment ("//").', path);
  }
  assert.deepEqual(splitPath('/a/b/c', 3), ['a', 'b', 'c']);
  assert.throws(() => splitPath('/a/b/c', 2), (e: Error & { status: number }) => e.status === 414);
  assert.throws(() => splitPath('a/b'), (e: Error & { status: number }) => e.status === 400);
  assert.equal(splitPath(`/${'x/'.repeat(63)}x`).length, 64);
  assert.throws(() => splitPath(`/${'x/'.repeat(64)}x`), (e: Error & { status: number }) => e.status === 414);
});

test('walk answers without a promise when _route is synchronous, with one when _lookup waits', async () => {
  class Item {
    @expose() index() { return 'item'; }
  }
  class Routed {
    @expose() show(id: string) { return id; }
    _route(remainder: readonly string[]) {
      return [Routed.prototype.show, remainder];
    }
  }
  class Looked {
    async _lookup(_id: string, ...rest: string[]) {
      return [new Item(), rest];
    }
  }
  class Root {
    routed = new Routed();
    looked = new Looked();
  }
  const root = new Root();
  const request = {} as Request;
  const sync = walk(root, ['routed', '7'], request);
  assert.ok(!(sync instanceof Promise), 'a synchronous _route keeps the walk synchronous');
  assert.equal(sync?.fn, Routed.prototype.show);
  assert.deepEqual([...sync!.remainder], ['7']);
  const later = walk(root, ['looked', '9', ''], request);
  assert.ok(later instanceof Promise, 'an async _lookup makes the walk asynchronous');
  const found = await later;
  assert.equal(found?.fn, Item.prototype.index);
  assert.deepEqual(await walk(root, ['looked', '9', ''], request), found);
});
