import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Kysely, type Generated } from 'kysely';
import { after_commit, createApp, expose, TransactionHook, type Kernel } from '@hickory/app';
import { kyselyTransactions } from './kysely-transactions.ts';
import { CUT_OFF_MESSAGE, SELF_WAIT_MESSAGE, SqliteRequestDialect } from './sqlite-request-dialect.ts';

interface Tables {
  books: { id: Generated<number>; name: string };
}

interface Setup {
  readonly app: Kernel;
  readonly db: Kysely<Tables>;
  /** Another connection to the same file: what a second process (another worker) would hold. */
  readonly other: Database.Database;
  /** Lets `/books/read_then_write` write. */
  go(): void;
  /** What `/books/add_then_count`'s after-commit action counted on `db`. */
  counted(): unknown;
}

// The recipe of docs/hooks.md on a file: one request-aware connection, and another one beside it.
async function withRecipe(work: (setup: Setup) => Promise<void>, waitMs = 400): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-sqlite-dialect-'));
  const sqlite = new Database(join(dir, 'books.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  const db = new Kysely<Tables>({ dialect: new SqliteRequestDialect({ database: sqlite, waitMs }) });
  await db.schema.createTable('books').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text', (c) => c.notNull()).execute();
  const other = new Database(join(dir, 'books.sqlite'), { timeout: 0 });
  const tx = new TransactionHook(kyselyTransactions(db));
  let go = () => {};
  let counted: unknown;
  const gate = () => new Promise<void>((resolve) => (go = resolve));
  class BooksController {
    @expose('json') index() {
      return tx.transaction().selectFrom('books').select('name').orderBy('id').execute();
    }
    @expose('json') async add(name: string) {
      await tx.transaction().insertInto('books').values({ name }).execute();
      return { name };
    }
    // What a session helper or a health check does by mistake: the Kysely instance, not the transaction.
    @expose('json') async add_and_count(name: string) {
      await tx.transaction().insertInto('books').values({ name }).execute();
      const started = performance.now();
      const error = await db.selectFrom('books').select('name').execute().then(() => undefined, (e: Error) => e);
      if (error === undefined) return { counted: true };
      if (name === 'throw') throw error;
      return { error: error.message, ms: performance.now() - started };
    }
    // Once committed, the transaction holds nothing: `db` is the Kysely instance to use again.
    @after_commit(async () => {
      counted = await db.selectFrom('books').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    })
    @expose('json') async add_then_count(name: string) {
      await tx.transaction().insertInto('books').values({ name }).execute();
      return { name };
    }
    @expose('json') async read_then_write(name: string) {
      const before = await tx.transaction().selectFrom('books').select('name').execute();
      await gate();
      await tx.transaction().insertInto('books').values({ name }).execute();
      return { before: before.length };
    }
  }
  const app = await createApp({ root: { books: new BooksController() }, hooks: [tx], logger: false }).ready();
  try {
    await work({ app, db, other, go: () => go(), counted: () => counted });
  } finally {
    await app.close();
    other.close();
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

const post = (app: Kernel, url: string, name: string) => app.inject({ method: 'POST', url, payload: { name } });

test("a query on the Kysely instance inside a request that holds the transaction fails at once, naming tx.transaction()", async () => {
  await withRecipe(async ({ app, db, counted }) => {
    const caught = await post(app, '/books/add_and_count', 'Dune');
    assert.equal(caught.statusCode, 200);
    const { error, ms } = caught.json() as { error: string; ms: number };
    assert.equal(error, SELF_WAIT_MESSAGE);
    assert.match(error, /use tx\.transaction\(\) inside a request that holds the transaction/);
    // At once: not after the 400 ms wait bound, let alone handler_timeout.
    assert.ok(ms < 100, `the error took ${Math.round(ms)} ms`);
    // Uncaught, it is that request's 500 (rolled back), and the connection is free for the next.
    const thrown = await post(app, '/books/add_and_count', 'throw');
    assert.equal(thrown.statusCode, 500);
    assert.equal((await post(app, '/books/add', 'Emma')).statusCode, 200);
    assert.deepEqual((await app.inject('/books/')).json(), [{ name: 'Dune' }, { name: 'Emma' }]);
    // After the commit (an after_commit action of the same request), `db` works again.
    assert.equal((await post(app, '/books/add_then_count', 'Ulysses')).statusCode, 200);
    assert.deepEqual(counted(), { n: 3 });
    // Outside every request, the Kysely instance is used as usual.
    assert.deepEqual(await db.selectFrom('books').select('name').orderBy('id').execute(), [{ name: 'Dune' }, { name: 'Emma' }, { name: 'Ulysses' }]);
  });
});

test('another request waits its turn for the connection, at most waitMs, then 503 with Retry-After', async () => {
  await withRecipe(async ({ app, go }) => {
    const holding = post(app, '/books/read_then_write', 'First');
    await sleep(30);
    const waited = await post(app, '/books/add', 'Second');
    assert.equal(waited.statusCode, 503);
    assert.equal(waited.headers['retry-after'], '1');
    go();
    assert.equal((await holding).statusCode, 200);
    const queued = post(app, '/books/read_then_write', 'Third');
    await sleep(30);
    const next = post(app, '/books/add', 'Fourth');
    await sleep(50);
    go();
    assert.deepEqual([(await queued).statusCode, (await next).statusCode], [200, 200]);
    assert.deepEqual((await app.inject('/books/')).json(), [{ name: 'First' }, { name: 'Third' }, { name: 'Fourth' }]);
  }, 200);
});

test('BEGIN IMMEDIATE: a read-then-write request holds the write lock from its start; a read-only one takes none', async () => {
  await withRecipe(async ({ app, other, go }) => {
    const writing = post(app, '/books/read_then_write', 'Mine');
    await sleep(30);
    // Another process cannot write in between: with a deferred BEGIN it could, and the request's
    // own write would then fail with SQLITE_BUSY_SNAPSHOT (a 500).
    assert.throws(() => other.prepare("INSERT INTO books (name) VALUES ('Theirs')").run(), { code: 'SQLITE_BUSY' });
    go();
    assert.equal((await writing).statusCode, 200);
    // A GET's transaction is read-only: another process writes meanwhile.
    const reading = app.inject('/books/');
    other.prepare("INSERT INTO books (name) VALUES ('Theirs')").run();
    assert.equal((await reading).statusCode, 200);
    assert.deepEqual((await app.inject('/books/')).json(), [{ name: 'Mine' }, { name: 'Theirs' }]);
  });
});

test("another process's lock is waited for on timers (the event loop keeps running), then 503 with Retry-After, never a 500", async () => {
  await withRecipe(async ({ app, other }) => {
    other.exec('BEGIN IMMEDIATE');
    const write = post(app, '/books/add', 'Patient');
    // While it waits, timers fire on time: better-sqlite3's busy_timeout would block here.
    let ticks = 0;
    let worstLagMs = 0;
    for (let i = 0; i < 10; i++) {
      const before = performance.now();
      await sleep(10);
      worstLagMs = Math.max(worstLagMs, performance.now() - before - 10);
      ticks++;
    }
    assert.equal(ticks, 10);
    assert.ok(worstLagMs < 300, `a 10 ms timer was ${Math.round(worstLagMs)} ms late`);
    other.exec('COMMIT');
    assert.equal((await write).statusCode, 200);

    other.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const refused = await post(app, '/books/add', 'Refused');
    const ms = performance.now() - started;
    other.exec('ROLLBACK');
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.json().code, 503);
    assert.ok(ms >= 380 && ms < 1500, `refused after ${Math.round(ms)} ms (the bound is 400 ms)`);
    assert.deepEqual((await app.inject('/books/')).json(), [{ name: 'Patient' }]);
  });
});

test('a hold outside a transaction is waited for, not refused: a query started inside a db.connection() callback of the same request', async () => {
  await withRecipe(async ({ db }) => {
    class Plain {
      @expose('json') async overlap() {
        let second: Promise<unknown[]> | undefined;
        await db.connection().execute(async () => {
          second = db.selectFrom('books').selectAll().execute();
          await sleep(20);
        });
        return { rows: (await second!).length };
      }
    }
    const plain = await createApp({ root: new Plain(), logger: false }).ready();
    try {
      const answer = await plain.inject('/overlap');
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(answer.json(), { rows: 0 });
    } finally {
      await plain.close();
    }
  });
});

test('a request answered 503 past handler_timeout: its late query on db is refused, and writes nothing', async () => {
  await withRecipe(async ({ db }) => {
    let late: Error | undefined;
    let lateDone: () => void = () => {};
    const lateFinished = new Promise<void>((resolve) => (lateDone = resolve));
    class Slow {
      @expose('json') async write_late(name: string) {
        await sleep(150);
        try {
          await db.insertInto('books').values({ name }).execute();
        } catch (error) {
          late = error as Error;
        } finally {
          lateDone();
        }
        return { name };
      }
    }
    const slow = await createApp({ root: new Slow(), handler_timeout: 50, logger: false }).ready();
    try {
      const answer = await slow.inject({ method: 'POST', url: '/write_late', payload: { name: 'Too late' } });
      assert.equal(answer.statusCode, 503);
      await lateFinished;
      assert.equal(late?.message, CUT_OFF_MESSAGE);
      assert.deepEqual(await db.selectFrom('books').select('name').execute(), []);
    } finally {
      await slow.close();
    }
  });
});
