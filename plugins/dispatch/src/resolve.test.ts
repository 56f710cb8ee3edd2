import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request } from '@hickory/core';
import { expose, resolvePath, splitPath, walk } from '@hickory/dispatch';

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
  for (const path of ['/', '/hours', '/hours/', '/leaf', '/leaf/', '/leaf/show', '/leaf/show/7', '/leaf/sh%6Fw/7', '/nothing/x', '/data/plain', '/leaf//show', '//', '/hours/x/']) {
    const fast = await resolvePath(root, path, request);
    const full = await walk(root, splitPath(path), request);
    assert.deepEqual(
      fast && { fn: fast.fn, remainder: [...fast.remainder], canonical: fast.canonical, controller: fast.controller },
      full && { fn: full.fn, remainder: [...full.remainder], canonical: full.canonical, controller: full.controller },
      path,
    );
  }
  await assert.rejects(async () => resolvePath(root, `/${'leaf/'.repeat(70)}`, request), /414|more than 64 segments/);
});
