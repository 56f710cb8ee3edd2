// Every routing form into a secured part of the tree: the check runs first, and a refused
// request reaches no handler, no _lookup and no _route (inject() and a real socket).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, redirect, type Request } from '@hickory/core';
import { createApp } from '@hickory/app';
import { expose, when } from '@hickory/dispatch';
import { Hook, secure, SecureController, unlocked, type HookState } from '@hickory/hooks';
import { RestController } from '@hickory/rest';

const log: string[] = [];
const isAdmin = (request: Request) => request.headers['x-user'] === 'admin';

class Item {
  constructor(readonly id: string) {}
  @expose() index() { log.push('handler'); return `item ${this.id}`; }
}
class Users { @expose() index() { log.push('handler'); return 'users'; } }
class Help { @expose() index() { log.push('handler'); return 'help'; } }
class Vault { @expose() index() { log.push('handler'); return 'vault'; } }
class Books extends RestController {
  static override _custom_actions = { publish: ['POST'] };
  @expose() get_all() { log.push('handler'); return 'all'; }
  @expose() get_one(id: string) { log.push('handler'); return `one ${id}`; }
  @expose() post() { log.push('handler'); return 'posted'; }
  @expose() put(id: string) { log.push('handler'); return `put ${id}`; }
  @expose() delete(id: string) { log.push('handler'); return `deleted ${id}`; }
  @expose() publish(id: string) { log.push('handler'); return `published ${id}`; }
}
class Generic {
  @expose({ generic: true }) index() { log.push('handler'); return 'generic get'; }
  @when('index', { method: 'POST' }) index_post() { log.push('handler'); return 'generic post'; }
}
class Routed {
  _route(remainder: string[]) { log.push('route'); return [new Item(remainder[0] ?? 'none'), remainder.slice(1)]; }
}
class Fallback {
  _default(...rest: string[]) { log.push('handler'); return `default ${rest.join('/')}`; }
}

class Inner extends SecureController {
  static override async check_permissions(request: Request) {
    log.push('inner check');
    await new Promise((done) => setTimeout(done, 1));
    return request.headers['x-vault'] === 'open';
  }
  @expose() index() { log.push('handler'); return 'inner'; }
}

class Admin extends SecureController {
  static override check_permissions(request: Request) {
    log.push('check');
    return isAdmin(request);
  }
  users = new Users();
  books = new Books();
  generic = new Generic();
  routed = new Routed();
  vault = secure(new Vault(), async (request: Request) => {
    log.push('vault check');
    await new Promise((done) => setTimeout(done, 1));
    return request.headers['x-vault'] === 'open';
  });
  inner = new Inner();
  help = unlocked(new Help());
  @expose() index() { log.push('handler'); return 'admin'; }
  @expose('json') stats() { log.push('handler'); return { users: 2 }; }
  @unlocked @expose() login() { log.push('handler'); return 'login form'; }
  _lookup(id: string, ...rest: string[]) {
    log.push('lookup');
    return [new Item(id), rest];
  }
}

const forbid = () => {
  log.push('forbid');
  return abort(403, 'Staff only.');
};

class Root {
  admin = new Admin();
  fallback = secure(new Fallback(), function (this: Fallback, request: Request) {
    log.push('check');
    return isAdmin(request);
  });
  staff = secure(new Users(), forbid);
  @expose() index() { return 'home'; }
  @expose() go() { return redirect('/admin/stats', { internal: true }); }
  @secure((request: Request) => {
    log.push('check');
    return isAdmin(request);
  })
  @expose()
  secret() { log.push('handler'); return 'secret'; }
}

// [method, url, status and body when allowed, what ran when allowed]
const table: Array<[string, string, number, string, string[]]> = [
  ['GET', '/admin/', 200, 'admin', ['check', 'handler']],
  ['GET', '/admin', 302, '', ['check']],
  ['GET', '/admin/stats', 200, '{"users":2}', ['check', 'handler']],
  ['GET', '/admin/stats.json', 200, '{"users":2}', ['check', 'handler']],
  ['GET', '/admin/users/', 200, 'users', ['check', 'handler']],
  ['GET', '/admin/7/', 200, 'item 7', ['check', 'lookup', 'handler']],
  ['GET', '/admin/routed/5/', 200, 'item 5', ['check', 'route', 'handler']],
  ['GET', '/admin/books/', 200, 'all', ['check', 'handler']],
  ['GET', '/admin/books/1', 200, 'one 1', ['check', 'handler']],
  ['POST', '/admin/books/', 200, 'posted', ['check', 'handler']],
  ['PUT', '/admin/books/1', 200, 'put 1', ['check', 'handler']],
  ['DELETE', '/admin/books/1', 200, 'deleted 1', ['check', 'handler']],
  ['POST', '/admin/books/1/publish', 200, 'published 1', ['check', 'handler']],
  ['GET', '/admin/generic/', 200, 'generic get', ['check', 'handler']],
  ['POST', '/admin/generic/', 200, 'generic post', ['check', 'handler']],
  ['GET', '/fallback/any/where', 200, 'default any/where', ['check', 'handler']],
  ['GET', '/secret', 200, 'secret', ['check', 'handler']],
  ['GET', '/go', 200, '{"users":2}', ['check', 'handler']],
  // Nothing answers there: the check still comes first, so a refused client learns nothing.
  ['GET', '/admin/nothing/here/at/all', 404, '', ['check', 'lookup']],
];

test('every routing form into a secured controller runs the check first; refused, nothing else runs (401)', async () => {
  const app = createApp({ root: new Root(), logger: false });
  for (const [method, url, status, body, ran] of table) {
    log.length = 0;
    const refused = await app.inject({ method, url });
    assert.equal(refused.statusCode, 401, `${method} ${url} without a user`);
    assert.match(refused.body, /You must be logged in/, `${method} ${url}`);
    assert.deepEqual(log, ['check'], `${method} ${url}: only the check ran`);
    log.length = 0;
    const allowed = await app.inject({ method, url, headers: { 'x-user': 'admin' } });
    assert.equal(allowed.statusCode, status, `${method} ${url} as admin`);
    if (body !== '') assert.equal(allowed.body, body, `${method} ${url}`);
    assert.deepEqual(log, ran, `${method} ${url} as admin`);
  }
  await app.close();
});

test('through a real socket too', async () => {
  const app = createApp({ root: new Root(), logger: false });
  const { url } = await app.listen({ port: 0 });
  try {
    for (const [method, path] of [['GET', '/admin/7/'], ['DELETE', '/admin/books/1'], ['GET', '/admin/nothing/here']] as const) {
      log.length = 0;
      const res = await fetch(`${url}${path}`, { method });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.deepEqual(log, ['check'], `${method} ${path}`);
    }
  } finally {
    await app.close();
  }
});

test('nested secured controllers each check, outermost first; async checks are awaited', async () => {
  const app = createApp({ root: new Root(), logger: false });
  log.length = 0;
  assert.equal((await app.inject({ url: '/admin/inner/', headers: { 'x-user': 'admin' } })).statusCode, 401);
  assert.deepEqual(log, ['check', 'inner check']);
  log.length = 0;
  const open = await app.inject({ url: '/admin/inner/', headers: { 'x-user': 'admin', 'x-vault': 'open' } });
  assert.equal(open.body, 'inner');
  assert.deepEqual(log, ['check', 'inner check', 'handler']);
  log.length = 0;
  assert.equal((await app.inject({ url: '/admin/inner/', headers: { 'x-vault': 'open' } })).statusCode, 401);
  assert.deepEqual(log, ['check']);
  await app.close();
});

test('a secure(child, check) held by a SecureController is checked by that check alone (Contract v3, as Pecan)', async () => {
  const app = createApp({ root: new Root(), logger: false });
  log.length = 0;
  assert.equal((await app.inject({ url: '/admin/vault/', headers: { 'x-user': 'admin' } })).statusCode, 401);
  assert.deepEqual(log, ['vault check']);
  log.length = 0;
  assert.equal((await app.inject('/admin/vault/')).statusCode, 401);
  assert.deepEqual(log, ['vault check']);
  log.length = 0;
  const open = await app.inject({ url: '/admin/vault/', headers: { 'x-vault': 'open' } });
  assert.equal(open.body, 'vault');
  assert.deepEqual(log, ['vault check', 'handler']);
  // Below it nothing answers, so the walk falls back to Admin's _lookup: Admin's own, so Admin's check first.
  log.length = 0;
  assert.equal((await app.inject({ url: '/admin/vault/no/such/page', headers: { 'x-vault': 'open' } })).statusCode, 401);
  assert.deepEqual(log, ['check']);
  await app.close();
});

test('unlocked children and methods are open; an abort(403) thrown by a check passes through', async () => {
  const app = createApp({ root: new Root(), logger: false });
  for (const [url, body] of [['/admin/help/', 'help'], ['/admin/login', 'login form']]) {
    log.length = 0;
    const res = await app.inject(url);
    assert.equal(res.statusCode, 200, url);
    assert.equal(res.body, body, url);
    assert.deepEqual(log, ['handler'], url);
  }
  log.length = 0;
  const staff = await app.inject({ url: '/staff/', headers: { 'x-user': 'admin' } });
  assert.equal(staff.statusCode, 403);
  assert.match(staff.body, /Staff only\./);
  assert.deepEqual(log, ['forbid']);
  // Nothing answers below /staff/ and nothing there could take the path: still the check, not a 404.
  log.length = 0;
  assert.equal((await app.inject('/staff/missing/page')).statusCode, 403);
  assert.deepEqual(log, ['forbid']);
  await app.close();
});

test('with hooks: on_route comes before the check, before after it; a refusal goes through on_error and after', async () => {
  class Recorder extends Hook {
    override on_route() { log.push('on_route'); }
    override before() { log.push('before'); }
    override on_error(state: HookState) { log.push(`on_error ${(state.error as { status?: number }).status}`); return undefined; }
    override after() { log.push('after'); }
  }
  const app = createApp({ root: new Root(), hooks: [new Recorder()], logger: false });
  log.length = 0;
  assert.equal((await app.inject({ url: '/admin/stats', headers: { 'x-user': 'admin' } })).statusCode, 200);
  assert.deepEqual(log, ['on_route', 'check', 'before', 'handler', 'after']);
  log.length = 0;
  assert.equal((await app.inject('/admin/stats')).statusCode, 401);
  assert.deepEqual(log, ['on_route', 'check', 'on_error 401', 'after']);
  await app.close();
});

test('secure() and unlocked() refuse what they cannot use', () => {
  assert.throws(() => secure(42 as unknown as string), { code: 'HICKORY_ERR_HOOKS_SECURE_ARGS' });
  assert.throws(() => secure('x' as unknown as object, () => true), { code: 'HICKORY_ERR_HOOKS_SECURE_ARGS' });
  assert.throws(() => unlocked(null as unknown as object), { code: 'HICKORY_ERR_HOOKS_SECURE_ARGS' });
});

test('a check named by a method that does not exist is a logged 500', async () => {
  class Panel { @expose() index() { return 'panel'; } }
  class Root2 { panel = secure(new Panel(), 'check_permissions'); }
  const errors: string[] = [];
  const app = createApp({ root: new Root2(), logger: { info() {}, warn() {}, error: (m: string, e?: unknown) => void errors.push(`${m}: ${(e as Error).message}`) } });
  assert.equal((await app.inject('/panel/')).statusCode, 500);
  assert.deepEqual(errors, ['GET /panel/ failed: The permission check "check_permissions" names no method of an object (Panel): define it on the controller (or as a static method of its class), or pass the function itself.']);
  await app.close();
});
