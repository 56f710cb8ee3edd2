import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel, redirect, Response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { RestController, restPlugin } from '@hickory/rest';
import { Hook, hooks, hooksPlugin, type HookState } from './index.ts';

// A hook that writes each call into `log` as "<name>.<method>".
class Recorder extends Hook {
  constructor(
    readonly name: string,
    readonly log: string[],
    priority = 100,
  ) {
    super();
    this.priority = priority;
  }
  override on_route() { this.log.push(`${this.name}.on_route`); }
  override before() { this.log.push(`${this.name}.before`); }
  override after() { this.log.push(`${this.name}.after`); }
  override on_error() { this.log.push(`${this.name}.on_error`); return undefined; }
}

function appWith(root: object, appHooks: Hook[], errors?: Record<number, string>) {
  return createKernel({ root, hooks: appHooks, logger: false, ...(errors ? { errors } : {}) }).use(restPlugin).use(hooksPlugin);
}

test('Pecan order: on_route (app), before by priority (app and controller), the handler, after in reverse', async () => {
  const log: string[] = [];
  @hooks(new Recorder('admin', log, 75))
  class Admin {
    @expose() index() { log.push('handler'); return 'admin'; }
  }
  class Root { admin = new Admin(); @expose() index() { log.push('handler'); return 'root'; } }
  const app = appWith(new Root(), [new Recorder('late', log, 100), new Recorder('early', log, 50)]);
  assert.equal((await app.inject('/admin/')).body, 'admin');
  assert.deepEqual(log, [
    'early.on_route', 'late.on_route',
    'early.before', 'admin.before', 'late.before',
    'handler',
    'late.after', 'admin.after', 'early.after',
  ]);
  log.length = 0;
  assert.equal((await app.inject('/')).body, 'root');
  assert.deepEqual(log, ['early.on_route', 'late.on_route', 'early.before', 'late.before', 'handler', 'late.after', 'early.after']);
  await app.close();
});

test('equal priorities keep the order: application first, then controllers from the outside in', async () => {
  const log: string[] = [];
  @hooks(new Recorder('inner', log))
  class Inner { @expose() index() { return 'inner'; } }
  @hooks(new Recorder('outer', log))
  class Outer { inner = new Inner(); }
  const app = appWith({ outer: new Outer() }, [new Recorder('app', log)]);
  assert.equal((await app.inject('/outer/inner/')).body, 'inner');
  assert.deepEqual(log, ['app.on_route', 'app.before', 'outer.before', 'inner.before', 'inner.after', 'outer.after', 'app.after']);
  await app.close();
});

test('controller hooks reach controllers returned by _lookup and _route, nested REST resources, and subclasses', async () => {
  const log: string[] = [];
  class Item { constructor(readonly id: string) {} @expose() index() { return `item ${this.id}`; } }
  @hooks(new Recorder('items', log))
  class Items { _lookup(id: string, ...rest: string[]) { return [new Item(id), rest]; } }
  class Chapters extends RestController { @expose() get_one(book: string, id: string) { return `chapter ${book}/${id}`; } }
  @hooks(new Recorder('books', log))
  class Books extends RestController { chapters = new Chapters(); @expose() get_one(id: string) { return `book ${id}`; } }
  class SpecialBooks extends Books {}
  class Root { items = new Items(); books = new Books(); special = new SpecialBooks(); }
  const app = appWith(new Root(), []);
  const cases: Array<[string, string, string[]]> = [
    ['/items/7/', 'item 7', ['items.before', 'items.after']],
    ['/books/3', 'book 3', ['books.before', 'books.after']],
    ['/books/3/chapters/2', 'chapter 3/2', ['books.before', 'books.after']],
    ['/special/4', 'book 4', ['books.before', 'books.after']],
  ];
  for (const [url, body, expected] of cases) {
    log.length = 0;
    assert.equal((await app.inject(url)).body, body, url);
    assert.deepEqual(log, expected, url);
  }
  await app.close();
});

test('state carries the request, the handler, its arguments, the hooks in force, the final response and the error', async () => {
  const seen: Record<string, unknown> = {};
  class Probe extends Hook {
    override before(state: HookState) {
      seen['controller'] = state.controller?.name;
      seen['arguments'] = [...(state.arguments ?? [])];
      seen['hooks'] = state.hooks.length;
      seen['path'] = state.request.path;
    }
    override on_error(state: HookState, error: unknown) {
      seen['error'] = state.error === error ? (error as { status?: number }).status : 'different';
      return undefined;
    }
    override after(state: HookState) {
      seen['status'] = state.response.status;
      state.response.headerMap.set('X-Seen', String(state.response.status));
    }
  }
  class Root {
    @expose() greet(name: string, times: string) { return `${name} ${times}`; }
    @expose() missing() { return abort(410, 'Gone.'); }
  }
  const app = appWith(new Root(), [new Probe()]);
  const res = await app.inject({ method: 'POST', url: '/greet/Ada', payload: { times: '2' } });
  assert.equal(res.body, 'Ada 2');
  assert.equal(res.headers['x-seen'], '200');
  assert.deepEqual({ ...seen }, { controller: 'greet', arguments: ['Ada', '2'], hooks: 1, path: '/greet/Ada', status: 200 });
  const gone = await app.inject('/missing');
  assert.equal(gone.statusCode, 410);
  assert.equal(gone.headers['x-seen'], '410');
  assert.equal(seen['error'], 410);
  await app.close();
});

test('after still runs after abort(); on_error runs first, in reverse order; a 404 runs the application hooks only', async () => {
  const log: string[] = [];
  @hooks(new Recorder('ctl', log, 10))
  class Root { @expose() denied() { log.push('handler'); return abort(403); } }
  const app = appWith(new Root(), [new Recorder('a', log, 1), new Recorder('b', log, 2)]);
  assert.equal((await app.inject('/denied')).statusCode, 403);
  assert.deepEqual(log, ['a.on_route', 'b.on_route', 'a.before', 'b.before', 'ctl.before', 'handler', 'ctl.on_error', 'b.on_error', 'a.on_error', 'ctl.after', 'b.after', 'a.after']);
  log.length = 0;
  assert.equal((await app.inject('/nowhere')).statusCode, 404);
  assert.deepEqual(log, ['a.on_route', 'b.on_route', 'b.on_error', 'a.on_error', 'b.after', 'a.after']);
  await app.close();
});

test('an on_error hook may return a Response to send instead; the first one (in reverse order) wins', async () => {
  class Friendly extends Hook {
    override on_error(_state: HookState, error: unknown) {
      return new Response({ status: 503, body: `sorry: ${(error as Error).message}` });
    }
  }
  class Other extends Hook {
    override priority = 200;
    override on_error() { return undefined; }
  }
  class Root { @expose() boom() { throw new Error('db down'); } }
  const app = appWith(new Root(), [new Friendly(), new Other()]);
  const res = await app.inject('/boom');
  assert.equal(res.statusCode, 503);
  assert.equal(res.body, 'sorry: db down');
  await app.close();
});

test('a hook that throws is the request’s 500, logged; after still runs and the server keeps serving', async () => {
  const log: string[] = [];
  const errors: string[] = [];
  class Broken extends Recorder {
    override before() {
      super.before();
      throw new Error('hook broke');
    }
  }
  class Root { @expose() index() { log.push('handler'); return 'ok'; } }
  const logger = { info() {}, warn() {}, error: (m: string, e?: unknown) => void errors.push(`${m}: ${(e as Error)?.message}`) };
  const app = createKernel({ root: new Root(), hooks: [new Broken('broken', log)], logger }).use(hooksPlugin);
  const res = await app.inject('/');
  assert.equal(res.statusCode, 500);
  assert.deepEqual(log, ['broken.on_route', 'broken.before', 'broken.on_error', 'broken.after']);
  assert.deepEqual(errors, ['GET / failed: hook broke']);
  log.length = 0;
  class Fine { @expose() index() { return 'fine'; } }
  const again = createKernel({ root: new Fine(), hooks: [new Recorder('ok', log)], logger: false }).use(hooksPlugin);
  assert.equal((await again.inject('/')).body, 'fine');
  await app.close();
  await again.close();
});

test('an after or on_error hook that throws gives a logged 500', async () => {
  const errors: string[] = [];
  const logger = { info() {}, warn() {}, error: (m: string, e?: unknown) => void errors.push(`${m}: ${(e as Error)?.message}`) };
  class BadAfter extends Hook { override after() { throw new Error('after broke'); } }
  class BadOnError extends Hook { override on_error() { throw new Error('on_error broke'); } }
  class Root { @expose() index() { return 'ok'; } @expose() denied() { return abort(403); } }
  const after = createKernel({ root: new Root(), hooks: [new BadAfter()], logger }).use(hooksPlugin);
  const res = await after.inject('/');
  assert.equal(res.statusCode, 500);
  assert.doesNotMatch(res.body, /ok/);
  const onError = createKernel({ root: new Root(), hooks: [new BadOnError()], logger }).use(hooksPlugin);
  assert.equal((await onError.inject('/denied')).statusCode, 500);
  assert.deepEqual(errors, ['GET / failed: after broke', 'an on_error hook failed for GET /denied: on_error broke']);
  await after.close();
  await onError.close();
});

test('async hook methods are awaited in order', async () => {
  const log: string[] = [];
  const tick = () => new Promise((done) => setTimeout(done, 1));
  class Slow extends Hook {
    constructor(readonly name: string) { super(); }
    override async on_route() { await tick(); log.push(`${this.name}.on_route`); }
    override async before() { await tick(); log.push(`${this.name}.before`); }
    override async after() { await tick(); log.push(`${this.name}.after`); }
  }
  class Root { @expose() index() { log.push('handler'); return 'ok'; } }
  const app = appWith(new Root(), [new Slow('one'), new Slow('two')]);
  assert.equal((await app.inject('/')).body, 'ok');
  assert.deepEqual(log, ['one.on_route', 'two.on_route', 'one.before', 'two.before', 'handler', 'two.after', 'one.after']);
  await app.close();
});

test('an internal redirect routes again as Pecan does: on_route and before per routing, after once; an error page runs no hooks of its own', async () => {
  const log: string[] = [];
  class Root {
    @expose() old() { log.push('old'); return redirect('/new', { internal: true }); }
    @expose() new() { log.push('new'); return 'new'; }
    @expose() page404() { log.push('page'); return 'the 404 page'; }
  }
  const app = appWith(new Root(), [new Recorder('h', log)], { 404: '/page404' });
  assert.equal((await app.inject('/old')).body, 'new');
  assert.deepEqual(log, ['h.on_route', 'h.before', 'old', 'h.on_route', 'h.before', 'new', 'h.after']);
  log.length = 0;
  const missing = await app.inject('/nowhere');
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.body, 'the 404 page');
  assert.deepEqual(log, ['h.on_route', 'h.on_error', 'page', 'h.after']);
  await app.close();
});

test('plain objects with hook methods work as hooks (config files in JavaScript)', async () => {
  const log: string[] = [];
  class Root { @expose() index() { return 'ok'; } }
  const app = appWith(new Root(), [{ before: () => void log.push('before'), after: () => void log.push('after') } as unknown as Hook]);
  assert.equal((await app.inject('/')).body, 'ok');
  assert.deepEqual(log, ['before', 'after']);
  await app.close();
});

test('@hooks(...) refuses what is not a hook, and a target that is not a class', () => {
  assert.throws(() => hooks('audit' as unknown as Hook), {
    code: 'HICKORY_ERR_HOOKS_DECORATOR',
    message: '@hooks(...) was given something that is not a hook: item 0 is "audit", which has no hook method: use it on a controller class, with hooks as arguments: @hooks(new TimingHook()) class Admin { … }.',
  });
  const decorate = hooks({ before() {} } as unknown as Hook);
  assert.throws(() => decorate({} as unknown as Function), { code: 'HICKORY_ERR_HOOKS_DECORATOR' });
});

test('plain JavaScript: hooks(...)(Class) as a call, and hooks from a config object', async () => {
  const log: string[] = [];
  class Panel {
    index() { log.push('handler'); return 'panel'; }
  }
  expose()(Panel.prototype.index);
  hooks(new Recorder('panel', log))(Panel);
  const app = createKernel({ root: { panel: new Panel() }, hooks: [new Recorder('app', log)], logger: false }).use(hooksPlugin);
  assert.equal((await app.inject('/panel/')).body, 'panel');
  assert.deepEqual(log, ['app.on_route', 'app.before', 'panel.before', 'handler', 'panel.after', 'app.after']);
  await app.close();
});

test('an empty Hook subclass is a hook, in the configuration and in @hooks (as in Pecan)', async () => {
  class Placeholder extends Hook {}
  @hooks(new Placeholder())
  class Admin {
    @expose() index() { return 'admin'; }
  }
  const app = createKernel({ root: { admin: new Admin() }, hooks: [new Placeholder()], logger: false }).use(hooksPlugin);
  await app.ready();
  assert.equal((await app.inject('/admin/')).body, 'admin');
  await app.close();
  // An object with no hook method is still refused, naming it.
  await assert.rejects(createKernel({ root: {}, hooks: [{}], logger: false }).use(hooksPlugin).ready(), { message: /item 0 is .* which has no hook method/ });
});
