import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Logger } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createSandbox } from '@hickory/sandbox/app';
import { createApp } from '@hickory/app';

// TypeScript's `private` is gone at run time: object dispatch follows every public field, so a
// `private` child controller is routable. `#field` and `_field` are what keep a field off the URL
// space; an object reachable at two paths is reported at ready() in development.

class Admin {
  @expose() index() {
    return 'admin';
  }
}

class Guarded {
  // The guard the alias below walks around.
  _lookup() {
    return undefined;
  }
  admin = new Admin();
}

class Root {
  guarded = new Guarded();
  private readonly shelf = { admin: this.guarded.admin }; // routable despite `private`
  readonly #hidden = new Admin();
  readonly _internal = new Admin();
  @expose() index() {
    return 'root';
  }
  // Read here only so that the compiler keeps quiet about fields the test reaches by URL.
  fields() {
    return [this.shelf, this.#hidden];
  }
}

function capture(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { logger: { info() {}, warn: (message: string) => warnings.push(message), error() {} }, warnings };
}

test('a TypeScript private child is routable; #field and _field are not', async () => {
  const { logger } = capture();
  const app = createApp({ root: new Root(), logger });
  try {
    const routes: Array<[string, number, string]> = [
      ['/shelf/admin/', 200, 'admin'],
      ['/hidden/', 404, ''],
      ['/_internal/', 404, ''],
      ['/internal/', 404, ''],
    ];
    for (const [url, status, body] of routes) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, status, url);
      if (body) assert.equal(res.body, body, url);
    }
  } finally {
    await app.close();
  }
});

test('ready() warns in development about a controller reachable at two paths, naming the field', async () => {
  const { logger, warnings } = capture();
  const app = createApp({ root: new Root(), logger });
  try {
    await app.ready();
    assert.deepEqual(warnings, [
      "Admin is routable at /guarded/admin/ and again at /shelf/admin/: routing follows every public field, and TypeScript's private or protected does not hide one. If /shelf/admin/ is not meant to be a URL, rename the field shelf to #shelf or _shelf.",
    ]);
  } finally {
    await app.close();
  }
});

test('no such warning in production, nor for the showcase', async () => {
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    const { logger, warnings } = capture();
    const app = createApp({ root: new Root(), logger });
    await app.ready();
    await app.close();
    assert.deepEqual(warnings, []);
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
  const { logger, warnings } = capture();
  const app = await createSandbox({ logger });
  try {
    assert.deepEqual(warnings, []);
    assert.equal((await app.inject('/shelf/books/')).statusCode, 404);
  } finally {
    await app.close();
  }
});
