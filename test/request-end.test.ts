import assert from 'node:assert/strict';
import { createReadStream, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { createKernel, request, response, type Kernel, type KernelConfig, type Request, type Response } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { hooksPlugin, TransactionHook, type TransactionFunctions } from '@hickory/hooks';
import { assertNothingUncaught, listening, rawExchange, withTimeout } from './security/harness.ts';

// A request ends once (issue #36, contract v4 "The end of a request"): once its answer is decided
// nothing it still does reaches the client or the data, its transaction never waits on the
// client, nothing it opened outlives it, and every wait at its end is bounded.

/** A database with ONE connection, as the showcase's SQLite: a transaction waits for it. */
class OneConnection {
  readonly events: string[] = [];
  #holder: Promise<void> = Promise.resolve();
  #next = 0;
  /** How long rollback takes (a database that is slow to answer). */
  rollbackMs = 0;
  /** Set: commit never settles (a connection that died without a reset). */
  hangCommit = false;

  readonly fns: TransactionFunctions<{ id: number; label: string; release: () => void }> = {
    start: (state) => this.#take(state.request),
    start_ro: (state) => this.#take(state.request),
    commit: ({ transaction }) => {
      this.events.push(`commit ${transaction!.label}`);
      return this.hangCommit ? new Promise(() => {}) : undefined;
    },
    rollback: async ({ transaction }) => {
      await sleep(this.rollbackMs);
      this.events.push(`rollback ${transaction!.label}`);
    },
    clear: ({ transaction }) => {
      this.events.push(`clear ${transaction!.label}`);
      transaction!.release();
    },
  };

  async #take(req: Request): Promise<{ id: number; label: string; release: () => void }> {
    const before = this.#holder;
    let release!: () => void;
    this.#holder = new Promise((done) => (release = done));
    await before;
    return { id: ++this.#next, label: `${req.method} ${req.path}${req.query_string ? `?${req.query_string}` : ''}`, release };
  }
}

let dir: string;
let bigFile: string;
const BIG = 8 * 1024 * 1024;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-request-end-'));
  bigFile = join(dir, 'big.bin');
  await writeFile(bigFile, Buffer.alloc(BIG, 7));
});
after(() => rm(dir, { recursive: true, force: true }));

function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

function appWith(root: object, db: OneConnection, more: KernelConfig = {}): { app: Kernel; tx: TransactionHook<{ id: number; label: string; release: () => void }> } {
  const tx = new TransactionHook(db.fns);
  return { app: createKernel({ root, hooks: [tx], logger: false, ...more }).use(hooksPlugin), tx };
}

test('a late handler changes nothing that is sent, and gets no transaction after its 503', async () => {
  const db = new OneConnection();
  db.rollbackMs = 120; // the 503 is still being written when the handler resumes
  let lateError: unknown;
  let resumed!: () => void;
  const lateDone = new Promise<void>((done) => (resumed = done));
  let tx!: TransactionHook<{ id: number; label: string; release: () => void }>;
  class Root {
    @expose('json') async login() {
      tx.transaction();
      await sleep(160);
      response.set_cookie('sid', 'stolen');
      response.headers['X-Late'] = 'yes';
      response.status = 201;
      try {
        tx.transaction();
      } catch (error) {
        lateError = error;
      }
      resumed();
      return { ok: true };
    }
    @expose('json') next() {
      return { label: tx.transaction().label };
    }
  }
  const built = appWith(new Root(), db, { handler_timeout: 100 });
  tx = built.tx;
  const { app } = built;
  try {
    const answered = await withTimeout(app.inject({ method: 'POST', url: '/login' }), 'the 503');
    assert.equal(answered.statusCode, 503);
    assert.equal(answered.headers['set-cookie'], undefined, 'no cookie of the late handler');
    assert.equal(answered.headers['x-late'], undefined, 'no header of the late handler');
    await lateDone;
    assert.equal((lateError as { code?: string }).code, 'HICKORY_ERR_HOOKS_TRANSACTION_ENDED');
    // The connection went on to the next request, whose transaction is its own.
    const next = await app.inject({ method: 'POST', url: '/next' });
    assert.deepEqual(next.json(), { label: 'POST /next' });
    assert.deepEqual(db.events, ['rollback POST /login', 'clear POST /login', 'commit POST /next', 'clear POST /next']);
  } finally {
    await app.close();
  }
});

test('with use_context_locals: false the late handler\'s own response object is sealed too', async () => {
  let kept!: () => void;
  const lateDone = new Promise<void>((done) => (kept = done));
  let lateStatus = 0;
  class Root {
    @expose() async slow(_request: Request, res: Response) {
      await sleep(150);
      res.set_cookie('sid', 'late');
      res.status = 202;
      res.body = 'late body';
      lateStatus = res.status;
      kept();
      return 'late';
    }
  }
  const app = createKernel({ root: new Root(), logger: false, handler_timeout: 80, use_context_locals: false }).use(dispatchPlugin);
  try {
    const answered = await app.inject({ method: 'GET', url: '/slow' });
    assert.equal(answered.statusCode, 503);
    await lateDone;
    assert.equal(lateStatus, 200, 'the sealed response kept its status');
    assert.equal(answered.headers['set-cookie'], undefined);
  } finally {
    await app.close();
  }
});

// A socket that sends a request and then reads nothing: its receive window fills and the server's
// writes stall, as with a client on a very slow link.
function stalledDownload(port: number, path: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  socket.pause();
  return socket;
}

test('a streamed body holds no transaction: ten stalled downloads leave the one connection free for writes', async () => {
  const db = new OneConnection();
  let tx!: TransactionHook<{ id: number; label: string; release: () => void }>;
  class Root {
    @expose({ content_type: 'application/octet-stream' }) download() {
      tx.transaction();
      response.app_iter = createReadStream(bigFile);
    }
    @expose('json') save() {
      return { saved: tx.transaction().label };
    }
  }
  const built = appWith(new Root(), db, { handler_timeout: 2_000, send_timeout: 10_000 });
  tx = built.tx;
  const port = await listening(built.app);
  const stalled: Socket[] = [];
  try {
    for (let i = 0; i < 10; i++) stalled.push(stalledDownload(port, `/download?n=${i}`));
    await sleep(300);
    // Every download's transaction ended before its body went out, though none was read.
    for (let i = 0; i < 10; i++) assert.ok(db.events.includes(`clear GET /download?n=${i}`), `download ${i} gave its connection back: ${db.events.join(', ')}`);
    const started = Date.now();
    const saved = await rawExchange(port, 'POST /save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    assert.equal(saved.status, 200);
    assert.deepEqual(JSON.parse(saved.body), { saved: 'POST /save' });
    assert.ok(Date.now() - started < 1_000, 'the write did not wait for the stalled readers');
  } finally {
    for (const socket of stalled) socket.destroy();
    await withTimeout(built.app.close(), 'close');
  }
});

test('HEAD of a streamed file, an error after app_iter was set, and a file that cannot be opened leave no descriptor open', async () => {
  const db = new OneConnection();
  class Root {
    @expose({ content_type: 'application/octet-stream' }) download() {
      response.app_iter = createReadStream(bigFile);
    }
    @expose({ content_type: 'application/octet-stream' }) broken() {
      response.app_iter = createReadStream(bigFile);
      throw new Error('after the stream was set');
    }
    @expose({ content_type: 'application/octet-stream' }) missing() {
      response.app_iter = createReadStream(join(dir, 'no-such-file'));
    }
    @expose() replaced() {
      response.app_iter = createReadStream(bigFile);
      return 'a body instead';
    }
  }
  const { app } = appWith(new Root(), db);
  const port = await listening(app);
  try {
    await rawExchange(port, 'GET /download HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', { timeout: 10_000 }); // warm up
    const opened = openDescriptors();
    for (let round = 0; round < 20; round++) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          app.inject({ method: 'HEAD', url: '/download' }).then((head) => {
            assert.equal(head.statusCode, 200);
            assert.equal(head.body, '');
          }),
        ),
      );
    }
    await sleep(50);
    assert.ok(openDescriptors() <= opened + 2, `descriptors: ${opened} before, ${openDescriptors()} after 200 HEADs`);
    for (let i = 0; i < 20; i++) assert.equal((await app.inject({ method: 'GET', url: '/broken' })).statusCode, 500);
    await sleep(50);
    assert.ok(openDescriptors() <= opened + 2, `descriptors: ${opened} before, ${openDescriptors()} after 20 errors`);
    for (let i = 0; i < 20; i++) assert.equal((await app.inject({ method: 'GET', url: '/replaced' })).body, 'a body instead');
    const headMissing = await app.inject({ method: 'HEAD', url: '/missing' });
    assert.equal(headMissing.statusCode, 500, 'HEAD of a file that cannot be opened is a 500, as its GET');
    const getMissing = await rawExchange(port, 'GET /missing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.equal(getMissing.status, 500);
    await sleep(50);
    assert.ok(openDescriptors() <= opened + 2, `descriptors: ${opened} before, ${openDescriptors()} after 200 HEADs, 20 errors and 20 replaced bodies`);
    assertNothingUncaught('request-end: dropped bodies');
  } finally {
    await app.close();
  }
});

test('a client that leaves while its handler runs: cut off at once, its stream closed, its transaction rolled back', async () => {
  const db = new OneConnection();
  let handlerDone!: () => void;
  const finished = new Promise<void>((done) => (handlerDone = done));
  let tx!: TransactionHook<{ id: number; label: string; release: () => void }>;
  let lateError: unknown;
  class Root {
    @expose({ content_type: 'application/octet-stream' }) async export() {
      tx.transaction();
      await sleep(150);
      try {
        tx.transaction();
      } catch (error) {
        lateError = error;
      }
      response.app_iter = createReadStream(bigFile);
      handlerDone();
    }
  }
  const built = appWith(new Root(), db, { handler_timeout: 5_000 });
  tx = built.tx;
  const port = await listening(built.app);
  try {
    const opened = openDescriptors();
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /export HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n');
    await sleep(50);
    socket.destroy();
    await sleep(30);
    // Given back when the client left, not when the handler finished.
    assert.deepEqual(db.events, ['rollback POST /export', 'clear POST /export']);
    await finished;
    await sleep(30);
    assert.equal((lateError as { code?: string }).code, 'HICKORY_ERR_HOOKS_TRANSACTION_ENDED');
    assert.ok(openDescriptors() <= opened + 1, 'the stream set after the client left was closed');
  } finally {
    await built.app.close();
  }
});

test('every wait at the end is bounded: a commit that never settles answers 503 within handler_timeout', async () => {
  const db = new OneConnection();
  db.hangCommit = true;
  class Root {
    @expose('json') save() {
      return { saved: true };
    }
    @expose('json') hook() {
      request.beforeEnd(() => new Promise(() => {}));
      return { hooked: true };
    }
  }
  const { app } = appWith(new Root(), db, { handler_timeout: 150 });
  try {
    const started = Date.now();
    const hung = await withTimeout(app.inject({ method: 'POST', url: '/save' }), 'the hanging commit');
    assert.equal(hung.statusCode, 503);
    assert.ok(Date.now() - started < 1_000);
    const plain = createKernel({ root: new Root(), logger: false, handler_timeout: 150 }).use(dispatchPlugin);
    const callback = await withTimeout(plain.inject({ method: 'GET', url: '/hook' }), 'the hanging beforeEnd');
    assert.equal(callback.statusCode, 503);
    assert.doesNotMatch(callback.body, /hooked/);
    await plain.close();
  } finally {
    await app.close();
  }
});

test('HTTP framing: a second Host line is refused; an absolute-form target\'s authority replaces Host', async () => {
  class Root {
    @expose() index() {
      return request.host;
    }
  }
  const app = createKernel({ root: new Root(), logger: false, allowed_hosts: ['good.example'] }).use(dispatchPlugin);
  const port = await listening(app);
  try {
    const twice = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: good.example\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    assert.equal(twice.status, 400);
    assert.match(twice.body, /more than one Host/);
    // Names compare without case: `hOsT` is a second Host, `Hosts` and `Ghst` are other headers.
    const mixed = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: good.example\r\nhOsT: evil.example\r\nConnection: close\r\n\r\n');
    assert.equal(mixed.status, 400);
    assert.match(mixed.body, /more than one Host/);
    const others = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: good.example\r\nHosts: a\r\nGhst: b\r\nConnection: close\r\n\r\n');
    assert.equal(others.status, 200);
    assert.equal(others.body, 'good.example');
    const evil = await rawExchange(port, 'GET http://evil.example/ HTTP/1.1\r\nHost: good.example\r\nConnection: close\r\n\r\n');
    assert.equal(evil.status, 400, 'the authority is checked against allowed_hosts');
    assert.match(evil.body, /evil\.example/);
    const good = await rawExchange(port, 'GET http://good.example/?q=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    assert.equal(good.status, 200);
    assert.equal(good.body, 'good.example');
    const userinfo = await rawExchange(port, 'GET http://a@good.example/ HTTP/1.1\r\nHost: good.example\r\nConnection: close\r\n\r\n');
    assert.equal(userinfo.status, 400);
  } finally {
    await app.close();
  }
});
