import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { RestController, restPlugin } from './index.ts';

async function readyError(root: object): Promise<{ code: string; message: string }> {
  const app = createKernel({ root, logger: false }).use(restPlugin);
  try {
    await app.ready();
  } catch (error) {
    await app.close();
    const e = error as { code: string; message: string; cause?: { code: string; message: string } };
    // The kernel may wrap a plugin's error; the REST error is the cause then.
    return e.code?.startsWith('HICKORY_ERR_REST_') ? e : (e.cause ?? e);
  }
  await app.close();
  assert.fail('ready() did not throw');
}

test('use(restPlugin) alone brings dispatch along', async () => {
  class Books extends RestController {
    @expose('json') get_all() { return []; }
  }
  const app: Kernel = createKernel({ root: { books: new Books() }, logger: false }).use(restPlugin);
  await app.ready();
  assert.equal((await app.inject('/books/')).body, '[]');
  await app.close();
  // And once more with dispatch registered first: use() is idempotent per plugin name.
  const again = createKernel({ root: { books: new Books() }, logger: false }).use(dispatchPlugin).use(restPlugin);
  assert.equal((await again.inject('/books/')).body, '[]');
  await again.close();
});

test('ready() rejects a custom action that names no exposed method', async () => {
  class Books extends RestController {
    static override _custom_actions = { checkout: ['POST'] };
    checkout(id: string) { return id; }
  }
  const error = await readyError({ shelf: { books: new Books() } });
  assert.equal(error.code, 'HICKORY_ERR_REST_ACTION_METHOD');
  assert.match(error.message, /Books\._custom_actions names "checkout", but no exposed method answers it for POST: define post_checkout\(\) or checkout\(\)/);
});

test('ready() names the verb a custom action has no method for: get_count answers GET, nothing answers POST', async () => {
  class Things extends RestController {
    static override _custom_actions = { count: ['GET', 'POST'] };
    @expose() get_count() { return '0'; }
  }
  const error = await readyError({ things: new Things() });
  assert.equal(error.code, 'HICKORY_ERR_REST_ACTION_METHOD');
  assert.match(error.message, /names "count", but no exposed method answers it for POST: define post_count\(\) or count\(\)/);
});

test('ready() rejects an invalid verb, an empty verb list, a bad shape, a reserved or invalid name', async () => {
  class BadVerb extends RestController {
    static override _custom_actions = { checkout: ['FETCH'] };
    @expose() checkout() { return ''; }
  }
  const verb = await readyError({ r: new BadVerb() });
  assert.equal(verb.code, 'HICKORY_ERR_REST_ACTION_VERB');
  assert.match(verb.message, /"FETCH" is not an HTTP method/);

  class NoVerbs extends RestController {
    static override _custom_actions = { checkout: [] };
    @expose() checkout() { return ''; }
  }
  assert.equal((await readyError({ r: new NoVerbs() })).code, 'HICKORY_ERR_REST_ACTION_VERBS');

  class Shape extends RestController {
    static override _custom_actions = ['checkout'] as never;
    @expose() get_all() { return ''; }
  }
  assert.equal((await readyError({ r: new Shape() })).code, 'HICKORY_ERR_REST_ACTIONS_SHAPE');

  class Reserved extends RestController {
    static override _custom_actions = { edit: ['POST'] };
    @expose() edit() { return ''; }
  }
  assert.equal((await readyError({ r: new Reserved() })).code, 'HICKORY_ERR_REST_ACTION_NAME');

  class Private extends RestController {
    static override _custom_actions = { _secret: ['POST'] };
    @expose() get_all() { return ''; }
  }
  const name = await readyError({ r: new Private() });
  assert.equal(name.code, 'HICKORY_ERR_REST_ACTION_NAME');
  assert.match(name.message, /"_secret" cannot be an action segment/);
});

test('a nested resource is checked too, and a subclass inherits _custom_actions', async () => {
  class Base extends RestController {
    static override _custom_actions = { archive: ['POST'] };
  }
  class Child extends Base {}
  class Parent extends RestController {
    child = new Child();
    @expose() get_one(id: string) { return id; }
  }
  const error = await readyError({ parent: new Parent() });
  assert.equal(error.code, 'HICKORY_ERR_REST_ACTION_METHOD');
  assert.match(error.message, /^Child\._custom_actions/);
});
