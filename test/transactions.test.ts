import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { abort, createKernel, redirect, response, type Kernel, type KernelConfig } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { Hook, hooksPlugin, secure, transactional, TransactionHook, type HookState, type TransactionFunctions } from '@hickory/hooks';
import { listening, withTimeout } from './security/harness.ts';

// A request's transaction is its own, whatever else is in flight (issue #28): one object per
// request from start to clear, begun once routed, checked and read, ended once the response is
// final, commit/rollback and clear exactly once on every path, every wait bounded.

interface Tx {
  readonly id: number;
  readonly writable: boolean;
  readonly events: string[];
}

/** A database stand-in: each transaction records what happened to it; `open` counts those not cleared. */
class Ledger {
  readonly all: Tx[] = [];
  open = 0;
  #next = 0;
  constructor(private readonly startDelay = 0) {}

  readonly fns: TransactionFunctions<Tx> = {
    start: (state) => this.#start(true, state),
    start_ro: (state) => this.#start(false, state),
    commit: ({ transaction }) => void transaction!.events.push('commit'),
    rollback: ({ transaction }) => void transaction!.events.push('rollback'),
    clear: ({ transaction }) => {
      transaction?.events.push('clear');
      this.open--;
    },
  };

  async #start(writable: boolean, state: HookState): Promise<Tx> {
    this.open++;
    if (this.startDelay > 0) await sleep(this.startDelay);
    const tx = { id: ++this.#next, writable, events: [`start ${state.request.method} ${state.request.path}`] };
    this.all.push(tx);
    return tx;
  }

  eventsOf(path: string): string[][] {
    return this.all.filter((tx) => tx.events[0]!.endsWith(` ${path}`)).map((tx) => tx.events.slice(1));
  }
}

// POST /save whose body (`name=` + the rest) arrives in two parts: `finish` sends the rest and
// resolves with the whole answer once the server closes the connection.
function slowSave(port: number): { finish(rest: string): Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  const closed = new Promise((done) => socket.once('close', done));
  socket.write('POST /save HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\nname=');
  return {
    async finish(rest) {
      socket.end(rest);
      await closed;
      return answer;
    },
  };
}

function appWith(root: object, ledger: Ledger, more: KernelConfig = {}, extraHooks: Hook[] = []): { app: Kernel; tx: TransactionHook<Tx> } {
  const tx = new TransactionHook(ledger.fns);
  const app = createKernel({ root, hooks: [tx, ...extraHooks], logger: false, ...more }).use(hooksPlugin);
  return { app, tx };
}

test('a hundred concurrent requests each see their own transaction, from the handler to commit and clear', async () => {
  const ledger = new Ledger(1);
  let tx!: TransactionHook<Tx>;
  class Root {
    @expose('json') async write(wait: string) {
      const mine = tx.transaction();
      await sleep(Number(wait));
      mine.events.push('handler');
      // Still the same one after the await, whatever ran meanwhile.
      return { id: tx.transaction().id, same: tx.transaction() === mine };
    }
  }
  const built = appWith(new Root(), ledger);
  tx = built.tx;
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) => built.app.inject({ method: 'POST', url: `/write?wait=${(i * 7) % 13}` })),
  );
  const ids = new Set<number>();
  for (const answer of answers) {
    assert.equal(answer.statusCode, 200);
    const { id, same } = answer.json() as { id: number; same: boolean };
    assert.equal(same, true);
    ids.add(id);
  }
  assert.equal(ids.size, 100, 'a hundred distinct transactions');
  for (const one of ledger.all) assert.deepEqual(one.events.slice(1), ['handler', 'commit', 'clear'], `transaction ${one.id}`);
  assert.equal(ledger.open, 0);
  await built.app.close();
});

test('the functions receive the hook state; commit, rollback and clear get the transaction start returned', async () => {
  const seen: string[] = [];
  const made = { name: 'the transaction' };
  const fns: TransactionFunctions<typeof made> = {
    start: (state) => {
      seen.push(`start ${state.request.method} ${state.request.path} ${typeof state.controller}`);
      return made;
    },
    start_ro: () => made,
    commit: (state) => void seen.push(`commit ${state.transaction === made} ${state.response.status}`),
    rollback: (state) => void seen.push(`rollback ${state.transaction === made}`),
    clear: (state) => void seen.push(`clear ${state.transaction === made}`),
  };
  class Root {
    @expose() save() { return 'saved'; }
  }
  const app = createKernel({ root: new Root(), hooks: [new TransactionHook(fns)], logger: false }).use(hooksPlugin);
  assert.equal((await app.inject({ method: 'POST', url: '/save' })).body, 'saved');
  assert.deepEqual(seen, ['start POST /save function', 'commit true 200', 'clear true']);
  await app.close();
});

test('outside a transaction, transaction() says why', async () => {
  const ledger = new Ledger();
  const { tx } = appWith({}, ledger);
  assert.throws(() => tx.transaction(), { code: 'HICKORY_ERR_HOOKS_NO_TRANSACTION', message: /No transaction is open for this call \(made outside a request\)/ });
});

class Thrower extends Hook {
  constructor(private readonly where: 'after' | 'on_error', priority: number) {
    super();
    this.priority = priority;
  }
  override after() {
    if (this.where === 'after') throw new Error('after hook broke');
  }
  override on_error() {
    if (this.where === 'on_error') throw new Error('on_error hook broke');
    return undefined;
  }
}

test('whatever another hook does, the transaction ends exactly once and the next request is unaffected', async (t) => {
  class Root {
    @expose() save() { return 'saved'; }
    @expose() refuse() { return abort(422, 'No.'); }
    @expose() moved() { return redirect('/save'); }
    @transactional({ ignore_redirects: false }) @expose() preview() { return redirect('/save'); }
    @expose() broken() { throw new Error('bug'); }
  }
  // `next`: what a following POST /save answers (a hook that throws on every request breaks it too).
  const cases: Array<{ name: string; hook?: Hook; path: string; status: number; events: string[]; next: number }> = [
    { name: 'success commits', path: '/save', status: 200, events: ['commit', 'clear'], next: 200 },
    { name: 'an abort rolls back', path: '/refuse', status: 422, events: ['rollback', 'clear'], next: 200 },
    { name: 'a redirect commits', path: '/moved', status: 302, events: ['commit', 'clear'], next: 200 },
    { name: 'ignore_redirects: false rolls a redirect back', path: '/preview', status: 302, events: ['rollback', 'clear'], next: 200 },
    { name: 'a bug rolls back', path: '/broken', status: 500, events: ['rollback', 'clear'], next: 200 },
    // Its after runs first (after hooks run in reverse priority): in the old design TransactionHook's never ran.
    { name: "an after hook that throws before TransactionHook's", hook: new Thrower('after', 200), path: '/moved', status: 500, events: ['rollback', 'clear'], next: 500 },
    { name: "an after hook that throws after TransactionHook's", hook: new Thrower('after', 1), path: '/moved', status: 500, events: ['rollback', 'clear'], next: 500 },
    { name: 'an on_error hook that throws', hook: new Thrower('on_error', 200), path: '/refuse', status: 500, events: ['rollback', 'clear'], next: 200 },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      const ledger = new Ledger();
      const { app } = appWith(new Root(), ledger, {}, c.hook === undefined ? [] : [c.hook]);
      const answer = await app.inject({ method: 'POST', url: c.path });
      assert.equal(answer.statusCode, c.status);
      assert.deepEqual(ledger.eventsOf(c.path), [c.events]);
      // The next request has its own transaction, ended by its own outcome.
      assert.equal((await app.inject({ method: 'POST', url: '/save' })).statusCode, c.next);
      assert.deepEqual(ledger.eventsOf('/save').at(-1), c.next === 200 ? ['commit', 'clear'] : ['rollback', 'clear']);
      assert.equal(ledger.open, 0, 'every transaction was cleared');
      await app.close();
    });
  }
});

test('a 500 never carries committed work: a commit that fails rolls back and answers a plain 500', async () => {
  const ledger = new Ledger();
  ledger.fns.commit = ({ transaction }) => {
    transaction!.events.push('commit failed');
    throw new Error('serialization failure');
  };
  class Root {
    @expose('json') login() {
      return { welcome: true };
    }
  }
  const { app } = appWith(new Root(), ledger);
  const answer = await app.inject({ method: 'POST', url: '/login', headers: { accept: 'application/json' } });
  assert.equal(answer.statusCode, 500);
  assert.equal(answer.json().code, 500);
  assert.deepEqual(ledger.eventsOf('/login'), [['commit failed', 'rollback', 'clear']]);
  await app.close();
});

test('start may refuse with an HTTPError (a busy database): that is the answer, and clear still runs', async () => {
  const cleared: string[] = [];
  const fns: TransactionFunctions = {
    start: () => abort(503, 'The database is busy; try again.', { 'Retry-After': '1' }),
    start_ro: () => undefined,
    commit: () => void cleared.push('commit'),
    rollback: () => void cleared.push('rollback'),
    clear: (state) => void cleared.push(`clear ${String(state.transaction)}`),
  };
  class Root {
    @expose('json') save() { return { saved: true }; }
  }
  const app = createKernel({ root: new Root(), hooks: [new TransactionHook(fns)], logger: false }).use(hooksPlugin);
  const answer = await app.inject({ method: 'POST', url: '/save', headers: { accept: 'application/json' } });
  assert.equal(answer.statusCode, 503);
  assert.equal(answer.headers['retry-after'], '1');
  // A 5xx body stays generic; the header says when to come back.
  assert.equal(answer.json().title, 'Service Unavailable');
  assert.deepEqual(cleared, ['clear undefined']);
  await app.close();
});

test('a streamed body is read after the transaction ended: committed before its first byte; the transaction is not handed to the stream', async () => {
  const ledger = new Ledger();
  let tx!: TransactionHook<Tx>;
  class Root {
    @expose({ content_type: 'text/csv' }) export(ask = 'no') {
      const mine = tx.transaction();
      response.app_iter = {
        async *[Symbol.asyncIterator]() {
          for (let row = 1; row <= 3; row++) {
            mine.events.push(`row ${row}`);
            // Asking for the transaction while streaming: it is over (Django's rule for streams).
            if (ask === 'yes' && row === 2) tx.transaction();
            yield `${row}\n`;
            await sleep(1);
          }
        },
      };
    }
  }
  const built = appWith(new Root(), ledger);
  tx = built.tx;
  const port = await listening(built.app);
  try {
    const whole = await fetch(`http://127.0.0.1:${port}/export`, { method: 'POST' });
    assert.equal(whole.status, 200);
    assert.equal(await whole.text(), '1\n2\n3\n');
    assert.deepEqual(ledger.eventsOf('/export'), [['commit', 'clear', 'row 1', 'row 2', 'row 3']]);

    const cut = await fetch(`http://127.0.0.1:${port}/export?ask=yes`, { method: 'POST' });
    assert.equal(cut.status, 200);
    await assert.rejects(cut.text(), 'the body is cut off where the stream asked for the ended transaction');
    assert.deepEqual(ledger.eventsOf('/export')[1], ['commit', 'clear', 'row 1', 'row 2']);
    assert.equal(ledger.open, 0);
  } finally {
    await withTimeout(built.app.close(), 'close');
  }
});

test('a client that leaves while its handler runs: rolled back, cleared, and the server keeps serving', async () => {
  const ledger = new Ledger();
  let handled!: () => void;
  const finished = new Promise<void>((done) => (handled = done));
  class Root {
    @expose() async slow() {
      await sleep(150);
      handled();
      return 'done';
    }
    @expose() fast() { return 'fast'; }
  }
  const { app } = appWith(new Root(), ledger);
  const port = await listening(app);
  try {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n');
    await sleep(40);
    socket.destroy();
    await finished;
    await sleep(20);
    assert.deepEqual(ledger.eventsOf('/slow'), [['rollback', 'clear']]);
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/fast`, { method: 'POST' })).text(), 'fast');
    assert.equal(ledger.open, 0);
  } finally {
    await withTimeout(app.close(), 'close');
  }
});

test('a slow body holds nothing: the transaction begins once the body is read, and other requests go first', async () => {
  const ledger = new Ledger();
  const order: string[] = [];
  class Root {
    @expose() save(name: string) {
      order.push(`save ${name}`);
      return name;
    }
    @expose() index() {
      order.push('read');
      return 'list';
    }
  }
  const { app } = appWith(new Root(), ledger);
  const port = await listening(app);
  try {
    const slow = slowSave(port);
    await sleep(100);
    assert.equal(ledger.all.length, 0, 'nothing begun while the body is on its way');
    const reads = await Promise.all(Array.from({ length: 5 }, () => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())));
    assert.deepEqual(reads, ['list', 'list', 'list', 'list', 'list']);
    await sleep(200);
    assert.match(await slow.finish('Dune'), /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nDune$/);
    assert.deepEqual(order, ['read', 'read', 'read', 'read', 'read', 'save Dune']);
    assert.deepEqual(ledger.eventsOf('/save'), [['commit', 'clear']]);
  } finally {
    await withTimeout(app.close(), 'close');
  }
});

test('every wait is bounded by handler_timeout: a _lookup, a check, a hook or a handler that never settles is a 503, rolled back', async (t) => {
  const never = () => new Promise<never>(() => {});
  class Stuck extends Hook {
    override priority = 200; // after TransactionHook's before: the transaction is open
    override before(state: HookState) {
      return state.request.path === '/hooked' ? never() : undefined;
    }
  }
  class Locked {
    @expose() index() { return 'secret'; }
  }
  class Root {
    locked = secure(new Locked(), () => never());
    @expose() async forever() { return never(); }
    @expose() hooked() { return 'unreachable'; }
    _lookup() { return never(); }
  }
  const cases: Array<{ path: string; events: string[][] }> = [
    { path: '/forever', events: [['rollback', 'clear']] },
    { path: '/hooked', events: [['rollback', 'clear']] },
    { path: '/locked/', events: [] },
    { path: '/anything/else', events: [] },
  ];
  for (const c of cases) {
    await t.test(c.path, async () => {
      const ledger = new Ledger();
      const { app } = appWith(new Root(), ledger, { handler_timeout: 150 }, [new Stuck()]);
      const started = performance.now();
      const answer = await withTimeout(app.inject({ method: 'POST', url: c.path }), c.path, 3_000);
      const took = performance.now() - started;
      assert.equal(answer.statusCode, 503);
      assert.ok(took >= 140 && took < 1_500, `answered after ${Math.round(took)} ms`);
      assert.deepEqual(ledger.eventsOf(c.path), c.events);
      assert.equal(ledger.open, 0);
      await app.close();
    });
  }
});

test('a start still waiting when the request runs out of time is given back once it has what it took', async () => {
  const ledger = new Ledger(300);
  class Root {
    @expose() save() { return 'saved'; }
  }
  const { app } = appWith(new Root(), ledger, { handler_timeout: 100 });
  const answer = await app.inject({ method: 'POST', url: '/save' });
  assert.equal(answer.statusCode, 503);
  assert.equal(ledger.open, 1, 'start is still running');
  await sleep(400);
  // It began after all: rolled back (the client was told 503), then cleared.
  assert.deepEqual(ledger.eventsOf('/save'), [['rollback', 'clear']]);
  assert.equal(ledger.open, 0);
  await app.close();
});

test('time waiting for the body is not the request\'s: a slow upload within request_timeout is served', async () => {
  const ledger = new Ledger();
  class Root {
    @expose() save(name: string) { return name; }
  }
  const { app } = appWith(new Root(), ledger, { handler_timeout: 100 });
  const port = await listening(app);
  try {
    const slow = slowSave(port);
    await sleep(300);
    assert.match(await slow.finish('Dune'), /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nDune$/);
  } finally {
    await withTimeout(app.close(), 'close');
  }
});

test('past handler_timeout the plain 503 is sent, even where an error document is configured for it', async () => {
  const ledger = new Ledger();
  class Root {
    @expose() async forever() { return new Promise(() => {}); }
    @expose() unavailable() { return 'the 503 page'; }
  }
  const { app } = appWith(new Root(), ledger, { handler_timeout: 100, errors: { 503: '/unavailable' } });
  const answer = await app.inject({ method: 'POST', url: '/forever' });
  assert.equal(answer.statusCode, 503);
  assert.match(answer.body, /503 Service Unavailable/);
  assert.doesNotMatch(answer.body, /the 503 page/);
  assert.deepEqual(ledger.eventsOf('/forever'), [['rollback', 'clear']]);
  await app.close();
});
