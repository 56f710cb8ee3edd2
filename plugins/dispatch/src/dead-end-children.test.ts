import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Logger } from '@hickory/core';
import { dispatchPlugin, expose, route } from '@hickory/dispatch';
import { deadEndMessage, findDeadEndChildren } from './dead-end-children.ts';

class Store {
  readonly rows = new Map<string, string>();
  count() {
    return this.rows.size;
  }
}

class Leaf {
  @expose() index() {
    return 'leaf';
  }
}

const paths = (root: object, maxDepth?: number) => findDeadEndChildren(root, maxDepth).map((c) => c.path);

test('an object field with nothing routable below it is a dead end, named by its path', () => {
  class Books {
    private readonly store = new Store(); // private to the compiler only
    @expose() index() {
      return String(this.store.count());
    }
  }
  class Root {
    books = new Books();
    @expose() index() {
      return 'home';
    }
  }
  const found = findDeadEndChildren(new Root());
  assert.deepEqual(
    found.map(({ path, owner, segment, mounted }) => ({ path, owner, segment, mounted })),
    [{ path: '/books/store/', owner: 'Books', segment: 'store', mounted: false }],
  );
  assert.equal(
    deadEndMessage(found[0]!),
    "/books/store/ leads nowhere: Books.store holds an object (Store) with nothing routable at or below it (no exposed method, _lookup, _default or _route). It answers 404 today, but routing follows every public field, and TypeScript's private or protected does not hide one: the path becomes live as soon as anything below it is exposed. If /books/store/ is not meant to be a URL, rename the field to #store or _store.",
  );
});

test('#field, _field, getters, arrays, functions and primitives are not in the URL space, so not reported', () => {
  let getterRan = false;
  class Root {
    readonly #store = new Store();
    readonly _store = new Store();
    readonly list = [new Store()];
    readonly make = () => new Store();
    readonly size = 3;
    readonly label = 'root';
    get computed() {
      getterRan = true;
      return new Store();
    }
    @expose() index() {
      return String(this.#store.count());
    }
  }
  assert.deepEqual(paths(new Root()), []);
  assert.equal(getterRan, false);
});

test('children that route somehow are not dead ends: exposed methods, _lookup, _default, _route, a controller below', () => {
  class Lookup {
    _lookup() {
      return undefined;
    }
  }
  class Default {
    _default() {
      return 'default';
    }
  }
  class Routed {
    _route() {
      return undefined;
    }
  }
  class Root {
    leaf = new Leaf();
    lookup = new Lookup();
    fallback = new Default();
    routed = new Routed();
    group = { leaf: new Leaf() }; // a plain object holding a controller routes: /group/leaf/
    @expose() index() {
      return 'home';
    }
  }
  assert.deepEqual(paths(new Root()), []);
});

test('every field holding a shared store is reported at its own path; Maps and Dates count as objects', () => {
  const store = new Store();
  class A {
    readonly store = store;
    @expose() index() {
      return 'a';
    }
  }
  class Root {
    a = new A();
    readonly store = store;
    readonly started = new Date(0);
    @expose() index() {
      return 'home';
    }
  }
  assert.deepEqual(paths(new Root()).sort(), ['/a/store/', '/started/', '/store/']);
});

test('cycles end the walk; each controller is walked once, at its shortest path', () => {
  class Node {
    parent: object | undefined;
    child: Node | undefined;
    readonly cache = new Map();
    @expose() index() {
      return 'node';
    }
  }
  const root = new Node();
  const child = new Node();
  root.child = child;
  child.parent = root; // back to the root: an alias, not a dead end
  child.child = root;
  assert.deepEqual(paths(root), ['/cache/', '/child/cache/']);
});

test('the walk stops at maxDepth (a longer path cannot be requested)', () => {
  class Level {
    next: Level | undefined;
    readonly cache = new Map();
    @expose() index() {
      return 'level';
    }
  }
  const root = new Level();
  let at = root;
  for (let i = 0; i < 5; i++) at = at.next = new Level();
  assert.equal(paths(root).length, 6);
  assert.deepEqual(paths(root, 2), ['/cache/', '/next/cache/']);
  assert.equal(paths(root, 0).length, 0);
});

test('an object mounted with route() that routes nothing is told apart from a field', () => {
  class Mounting {
    @expose() index() {
      return 'home';
    }
  }
  route(Mounting, 'notes', { text: { body: 'x' } });
  const [found] = findDeadEndChildren(new Mounting());
  assert.equal(found?.mounted, true);
  assert.match(deadEndMessage(found!), /^\/notes\/ leads nowhere: route\(Mounting, 'notes', …\) mounts an object \(Object\) .*Mount a controller there, or remove the route\(\)\.$/);
});

function capture(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { logger: { info() {}, warn: (message: string) => void warnings.push(message), error() {} }, warnings };
}

test('dispatch warns at ready() outside production, once per dead end, and not in production', async () => {
  class Root {
    readonly db = new Store();
    @expose() index() {
      return 'home';
    }
  }
  const before = process.env['NODE_ENV'];
  try {
    for (const [env, expected] of [
      ['development', 1],
      ['test', 1],
      ['production', 0],
    ] as const) {
      process.env['NODE_ENV'] = env;
      const { logger, warnings } = capture();
      const app = createKernel({ root: new Root(), logger }).use(dispatchPlugin);
      await app.ready();
      assert.equal((await app.inject('/db/')).statusCode, 404, 'a dead end answers 404');
      await app.close();
      assert.equal(warnings.length, expected, env);
      if (expected) assert.match(warnings[0]!, /^\/db\/ leads nowhere: Root\.db .*rename the field to #db or _db\.$/);
    }
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
});
