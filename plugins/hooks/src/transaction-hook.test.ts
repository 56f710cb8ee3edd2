import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel, redirect, response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { after_commit, after_rollback, hooks, hooksPlugin, transactional, TransactionHook, type TransactionFunctions } from './index.ts';

// A transaction log standing in for a database: each function records its name.
function recorder(log: string[], overrides: Partial<TransactionFunctions> = {}): TransactionFunctions {
  const at = (name: string) => () => void log.push(name);
  return { start: at('start'), start_ro: at('start_ro'), commit: at('commit'), rollback: at('rollback'), clear: at('clear'), ...overrides };
}

class Root {
  constructor(private readonly log: string[]) {}
  @expose() index() { this.log.push('handler'); return 'read'; }
  @expose() write() { this.log.push('handler'); return 'written'; }
  @expose() fail() { this.log.push('handler'); throw new Error('write failed'); }
  @expose() invalid() { this.log.push('handler'); return abort(400, 'Bad name.'); }
  @expose() moved() { this.log.push('handler'); return redirect('/'); }
  @expose() unprocessable() { this.log.push('handler'); response.status = 422; return 'no'; }
  @expose() forward() { this.log.push('handler'); return redirect('/write', { internal: true }); }
  @transactional() @expose() refresh() { this.log.push('handler'); return 'refreshed'; }
  @after_commit(function first() {}) @expose() noted() { this.log.push('handler'); return 'noted'; }
}

function appFor(log: string[], fns: TransactionFunctions = recorder(log), root: object = new Root(log)) {
  return createKernel({ root, hooks: [new TransactionHook(fns)], logger: false }).use(hooksPlugin);
}

test('GET and HEAD read in start_ro and only clear; other methods start, and commit on success', async () => {
  const log: string[] = [];
  const app = appFor(log);
  const cases: Array<[string, string, number, string[]]> = [
    ['GET', '/', 200, ['start_ro', 'handler', 'clear']],
    ['HEAD', '/', 200, ['start_ro', 'handler', 'clear']],
    ['POST', '/write', 200, ['start', 'handler', 'commit', 'clear']],
    ['PUT', '/write', 200, ['start', 'handler', 'commit', 'clear']],
    ['DELETE', '/write', 200, ['start', 'handler', 'commit', 'clear']],
  ];
  for (const [method, url, status, expected] of cases) {
    log.length = 0;
    assert.equal((await app.inject({ method, url })).statusCode, status, `${method} ${url}`);
    assert.deepEqual(log, expected, `${method} ${url}`);
  }
  await app.close();
});

test('rollback when the handler throws or aborts, or the response is a 4xx/5xx; a redirect commits', async () => {
  const log: string[] = [];
  const app = appFor(log);
  const cases: Array<[string, number, string[]]> = [
    ['/fail', 500, ['start', 'handler', 'rollback', 'clear']],
    ['/invalid', 400, ['start', 'handler', 'rollback', 'clear']],
    ['/unprocessable', 422, ['start', 'handler', 'rollback', 'clear']],
    ['/moved', 302, ['start', 'handler', 'commit', 'clear']],
    // Routing failed: the transaction had not begun (it begins once routed, checked and read).
    ['/nowhere', 404, []],
    ['/forward', 200, ['start', 'handler', 'handler', 'commit', 'clear']],
  ];
  for (const [url, status, expected] of cases) {
    log.length = 0;
    const res = await app.inject({ method: 'POST', url });
    assert.equal(res.statusCode, status, url);
    assert.deepEqual(log, expected, url);
  }
  await app.close();
});

test('@transactional() turns a GET into a read-write transaction, on a method or on a class', async () => {
  const log: string[] = [];
  @transactional()
  class Admin {
    @expose() index() { log.push('handler'); return 'admin'; }
  }
  const root = new Root(log) as Root & { admin: Admin };
  root.admin = new Admin();
  const app = appFor(log, recorder(log), root);
  for (const url of ['/refresh', '/admin/']) {
    log.length = 0;
    assert.equal((await app.inject(url)).statusCode, 200, url);
    assert.deepEqual(log, ['start', 'handler', 'commit', 'clear'], url);
  }
  await app.close();
});

test('after_commit and after_rollback actions run after the outcome, in the order written', async () => {
  const log: string[] = [];
  class Books {
    @after_commit(() => void log.push('mail'))
    @after_commit(() => void log.push('index'))
    @after_rollback(() => void log.push('alert'))
    @expose()
    post(name: string) {
      log.push('handler');
      return name === 'bad' ? abort(400) : name;
    }
  }
  const app = appFor(log, recorder(log), { books: new Books() });
  assert.equal((await app.inject({ method: 'POST', url: '/books/post', payload: { name: 'Dune' } })).body, 'Dune');
  assert.deepEqual(log, ['start', 'handler', 'commit', 'mail', 'index', 'clear']);
  log.length = 0;
  assert.equal((await app.inject({ method: 'POST', url: '/books/post', payload: { name: 'bad' } })).statusCode, 400);
  assert.deepEqual(log, ['start', 'handler', 'rollback', 'alert', 'clear']);
  await app.close();
});

test('a commit that fails is a logged 500, and clear still runs; async functions are awaited', async () => {
  const log: string[] = [];
  const errors: string[] = [];
  // request.log reaches a console-like logger with the error in its fields ({ err, reqId }).
  const logger = { info() {}, warn() {}, error: (m: string, e?: { err?: Error }) => void errors.push(`${m}: ${e?.err?.message}`) };
  const fns = recorder(log, {
    start: async () => {
      await new Promise((done) => setTimeout(done, 1));
      log.push('start');
    },
    commit: async () => {
      log.push('commit');
      throw new Error('disk full');
    },
  });
  const app = createKernel({ root: new Root(log), hooks: [new TransactionHook(fns)], logger }).use(hooksPlugin);
  const res = await app.inject({ method: 'POST', url: '/write' });
  assert.equal(res.statusCode, 500);
  assert.doesNotMatch(res.body, /written/);
  assert.deepEqual(log, ['start', 'handler', 'commit', 'rollback', 'clear']);
  assert.deepEqual(errors, ['a beforeEnd callback failed: the response is an error: disk full']);
  await app.close();
});

test('as a controller hook it begins in before, for that controller only', async () => {
  const log: string[] = [];
  @hooks(new TransactionHook(recorder(log)))
  class Store {
    @expose() buy() { log.push('handler'); return 'bought'; }
    @expose() index() { log.push('handler'); return 'store'; }
  }
  class Plain { store = new Store(); @expose() index() { log.push('handler'); return 'plain'; } }
  const app = createKernel({ root: new Plain(), logger: false }).use(hooksPlugin);
  const cases: Array<[string, string, string[]]> = [
    ['POST', '/store/buy', ['start', 'handler', 'commit', 'clear']],
    ['GET', '/store/', ['start_ro', 'handler', 'clear']],
    ['POST', '/', ['handler']],
  ];
  for (const [method, url, expected] of cases) {
    log.length = 0;
    assert.equal((await app.inject({ method, url })).statusCode, 200, url);
    assert.deepEqual(log, expected, `${method} ${url}`);
  }
  await app.close();
});

test('TransactionHook and the decorators refuse what they cannot use', () => {
  assert.throws(() => new TransactionHook({ start() {}, commit() {} } as unknown as TransactionFunctions), {
    code: 'HICKORY_ERR_HOOKS_TRANSACTION_ARGS',
    message: 'TransactionHook needs the functions start, start_ro, commit, rollback and clear: missing start_ro, rollback, clear.',
  });
  assert.throws(() => new TransactionHook(undefined as unknown as TransactionFunctions), { message: /: got undefined\.$/ });
  assert.throws(() => after_commit('mail' as unknown as () => void), { code: 'HICKORY_ERR_HOOKS_TRANSACTION_DECORATOR' });
  assert.throws(() => transactional()({} as unknown as Function), { code: 'HICKORY_ERR_HOOKS_TRANSACTION_DECORATOR' });
});
