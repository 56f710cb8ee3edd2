// Issue #22: TypeScript's `private` is a compile-time word only. Object dispatch follows every
// public field, so `private readonly admin = new AdminPanel()` is routable at /admin/ — past a
// check placed in a `_lookup` — while `#admin` and `_admin` are not. In development, ready() warns
// about fields that put an object with nothing routable in the URL space (a store or a service
// kept in a public or `private` field), naming the path and the fix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, request, type Logger } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { RestController } from '@hickory/rest';
import { createApp } from '@hickory/app';
import { createSandbox } from '@hickory/sandbox/app';

class AdminPanel {
  @expose() index() {
    return 'admin panel';
  }
}

// /admin/... is meant to go through `_lookup`, which checks the caller first.
function guardedLookup(admin: AdminPanel, segment: string, rest: string[]): [AdminPanel, string[]] | undefined {
  if (segment !== 'admin') return undefined;
  if (request.headers['x-admin'] !== 'yes') abort(403, 'Admins only.');
  return [admin, rest];
}

class PrivateField {
  private readonly admin = new AdminPanel(); // private to the compiler only
  @expose() index() {
    return 'home';
  }
  _lookup(segment: string, ...rest: string[]) {
    return guardedLookup(this.admin, segment, rest);
  }
}

class HashField {
  readonly #admin = new AdminPanel();
  @expose() index() {
    return 'home';
  }
  _lookup(segment: string, ...rest: string[]) {
    return guardedLookup(this.#admin, segment, rest);
  }
}

class UnderscoreField {
  readonly _admin = new AdminPanel();
  @expose() index() {
    return 'home';
  }
}

async function answer(root: object, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const app = createApp({ root, logger: false });
  try {
    const res = await app.inject({ url, headers });
    return { status: res.statusCode, body: res.body };
  } finally {
    await app.close();
  }
}

test('a TypeScript private child controller is routable: /admin/ answers past the _lookup guard', async () => {
  assert.deepEqual(await answer(new PrivateField(), '/admin/'), { status: 200, body: 'admin panel' });
});

test('a #child is not routable: /admin/ goes through the _lookup guard (403, or 200 when it lets the caller in), and without a _lookup it is a 404', async () => {
  assert.equal((await answer(new HashField(), '/admin/')).status, 403);
  assert.deepEqual(await answer(new HashField(), '/admin/', { 'x-admin': 'yes' }), { status: 200, body: 'admin panel' });
  class HashOnly {
    readonly #admin = new AdminPanel();
    @expose() index() {
      return String(this.#admin);
    }
  }
  assert.equal((await answer(new HashOnly(), '/admin/')).status, 404);
});

test('a _child is not routable: /_admin/ and /admin/ are 404', async () => {
  assert.equal((await answer(new UnderscoreField(), '/_admin/')).status, 404);
  assert.equal((await answer(new UnderscoreField(), '/admin/')).status, 404);
});

// ---- ready() warnings ----

class Inventory {
  readonly items = new Map<string, number>();
}

function capture(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { logger: { info() {}, warn: (message: string) => void warnings.push(message), error() {} }, warnings };
}

async function warningsAtReady(root: object, nodeEnv: string): Promise<string[]> {
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = nodeEnv;
  try {
    const { logger, warnings } = capture();
    const app = createApp({ root, logger });
    await app.ready();
    await app.close();
    return warnings;
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
}

class Shop {
  private readonly inventory = new Inventory(); // meant to be #inventory
  @expose('json') index() {
    return [...this.inventory.items.keys()];
  }
}

class AccidentalRoot {
  shop = new Shop();
  @expose() index() {
    return 'home';
  }
}

test('ready() warns in development about an accidental child: an object with nothing routable in a public or private field', async () => {
  assert.deepEqual(await warningsAtReady(new AccidentalRoot(), 'development'), [
    "/shop/inventory/ leads nowhere: Shop.inventory holds an object (Inventory) with nothing routable at or below it (no exposed method, _lookup, _default or _route). It answers 404 today, but routing follows every public field, and TypeScript's private or protected does not hide one: the path becomes live as soon as anything below it is exposed. If /shop/inventory/ is not meant to be a URL, rename the field to #inventory or _inventory.",
  ]);
});

test('no warning for legitimate children: controllers, REST controllers (even empty ones), #field and _field', async () => {
  class Orders extends RestController {
    @expose('json') get_all() {
      return [];
    }
  }
  class Placeholder extends RestController {} // routed by REST's _route: 405 with Allow, not a dead end
  class TidyShop {
    readonly #inventory = new Inventory();
    readonly _cache = new Map<string, string>();
    @expose('json') index() {
      return [...this.#inventory.items.keys(), ...this._cache.keys()];
    }
  }
  class Root {
    shop = new TidyShop();
    orders = new Orders();
    later = new Placeholder();
    admin = new AdminPanel();
    group = { admin: new AdminPanel() }; // a plain object holding a controller routes: /group/admin/
    @expose() index() {
      return 'home';
    }
  }
  assert.deepEqual(await warningsAtReady(new Root(), 'development'), []);
});

test('no warning when NODE_ENV=production', async () => {
  assert.deepEqual(await warningsAtReady(new AccidentalRoot(), 'production'), []);
});

test('the showcase logs no warning at ready() in development', async () => {
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'development';
  try {
    const { logger, warnings } = capture();
    const app = await createSandbox({ logger });
    try {
      assert.deepEqual(warnings, []);
      for (const url of ['/books/store/', '/authors/store/', '/store/store/', '/items/items/', '/files/stored/', '/shelf/books/']) {
        assert.equal((await app.inject(url)).statusCode, 404, url);
      }
    } finally {
      await app.close();
    }
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
});
