import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { memoryStore, sqlStore, type SessionStore } from './index.ts';
import { SECRET, sessionApp, setCookie } from './fixtures/app.ts';

test('memoryStore is bounded: past max the least recently saved session goes', async () => {
  const store = memoryStore({ max: 3, sweepInterval: 0 });
  const later = Date.now() + 60_000;
  for (const id of ['a', 'b', 'c']) await store.set(id, `"${id}"`, later);
  await store.set('a', '"a2"', later); // saved again: now the most recent
  await store.set('d', '"d"', later);
  assert.deepEqual(await Promise.all(['a', 'b', 'c', 'd'].map(async (id) => (await store.get(id))?.data)), ['"a2"', undefined, '"c"', '"d"']);
});

test('memoryStore never returns an expired session, and sweeps at most sweepBatch entries per pass', async () => {
  const store = memoryStore({ sweepBatch: 2, sweepInterval: 0 });
  const now = Date.now();
  for (let i = 0; i < 5; i++) await store.set(`old${i}`, '{}', now - 1);
  await store.set('live', '{}', now + 60_000);
  assert.equal(await store.sweep(now), 2);
  assert.equal(await store.sweep(now), 2);
  assert.equal(await store.sweep(now), 1);
  assert.equal(await store.sweep(now), 0);
  assert.equal((await store.get('live'))?.data, '{}');
  await store.set('gone', '{}', now - 1);
  assert.equal(await store.get('gone'), undefined);
});

test('store options are checked when the store is made', () => {
  assert.throws(() => memoryStore({ max: 0 }), { code: 'HICKORY_ERR_SESSION_STORE', message: 'The session store option "memoryStore: max" must be a whole number of at least 1, got 0.' });
  assert.throws(() => memoryStore({ size: 3 } as never), { code: 'HICKORY_ERR_SESSION_STORE', message: /"memoryStore: size" is unknown/ });
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  assert.throws(() => sqlStore(db, { table: 'x; DROP TABLE y' }), { code: 'HICKORY_ERR_SESSION_STORE', message: /"sqlStore: table" must be a plain SQL name/ });
  assert.throws(() => sqlStore(db, { timeout: 0 }), { code: 'HICKORY_ERR_SESSION_STORE' });
  void db.destroy();
});

/**
 * The contract every store keeps (run on SQLite here, on PostgreSQL in test/session-postgres.test.ts).
 *
 * @example
 * ```ts
 * await storeContract(sqlStore(db, { sweepBatch: 2 }), (sql) => countRows(sql));
 * ```
 */
async function storeContract(store: SessionStore, rows: () => Promise<number>): Promise<void> {
  await store.init?.();
  await store.init?.(); // a second start finds the table there
  const now = Date.now();
  await store.set('s1', '{"a":1}', now + 60_000);
  assert.deepEqual(await store.get('s1'), { data: '{"a":1}', expires: now + 60_000 });
  await store.set('s1', '{"a":2}', now + 70_000);
  assert.deepEqual(await store.get('s1'), { data: '{"a":2}', expires: now + 70_000 });
  await store.touch('s1', now + 80_000);
  assert.deepEqual(await store.get('s1'), { data: '{"a":2}', expires: now + 80_000 });
  await store.destroy('s1');
  assert.equal(await store.get('s1'), undefined);
  for (let i = 0; i < 5; i++) await store.set(`old${i}`, '{}', now - 1000);
  await store.set('live', '{}', now + 60_000);
  assert.equal(await store.get('old0'), undefined);
  assert.equal(await rows(), 6);
  assert.equal(await store.sweep(now), 2);
  assert.equal(await store.sweep(now), 2);
  assert.equal(await store.sweep(now), 1);
  assert.equal(await store.sweep(now), 0);
  assert.equal(await rows(), 1);
}

test('sqlStore on SQLite keeps the store contract: table made at init, upsert, touch, destroy, bounded sweep', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  await storeContract(sqlStore(db, { sweepBatch: 2, table: 'web_sessions' }), async () => {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM web_sessions`.execute(db);
    return Number(rows[0]!.n);
  });
  const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE tbl_name = 'web_sessions' ORDER BY name`.execute(db);
  assert.deepEqual(rows.map((r) => r.name), ['sqlite_autoindex_web_sessions_1', 'web_sessions', 'web_sessions_expires']);
  await db.destroy();
});

test('two kernels on one SQLite file share sessions: made on one, read and changed on the other', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-session-'));
  const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(join(dir, 'sessions.db')) }) });
  const [dbA, dbB] = [open(), open()];
  const a = sessionApp({ secret: SECRET, store: sqlStore(dbA) });
  const b = sessionApp({ secret: SECRET, store: sqlStore(dbB) });
  try {
    await a.ready();
    await b.ready();
    const cookie = setCookie((await a.inject('/count')).headers['set-cookie'], 'sid')!;
    assert.deepEqual((await b.inject({ url: '/count', headers: { cookie: cookie.pair } })).json(), { visits: 2 });
    assert.deepEqual((await a.inject({ url: '/read', headers: { cookie: cookie.pair } })).json(), { visits: 2 });
    const { rows } = await sql<{ data: string }>`SELECT data FROM hickory_sessions`.execute(dbA);
    assert.deepEqual(rows, [{ data: '{"visits":2}' }]);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await Promise.all([dbA.destroy(), dbB.destroy()]);
    await rm(dir, { recursive: true, force: true });
  }
});

test('a database that does not answer fails ready() with a coded error after sqlStore\'s timeout, never hangs', async () => {
  // A connection that never comes: every query waits for it.
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: () => new Promise(() => {}) }) });
  const app = sessionApp({ secret: SECRET, store: sqlStore(db, { timeout: 50 }) });
  const started = Date.now();
  await assert.rejects(app.ready(), { code: 'HICKORY_ERR_SESSION_STORE_TIMEOUT', message: /^The session store did not answer CREATE TABLE within 50 ms/ });
  assert.ok(Date.now() - started < 2000);
});

test('the plugin sweeps its store every sweepInterval from ready() on, and stops at close()', async () => {
  const inner = memoryStore({ sweepInterval: 20 });
  let sweeps = 0;
  const store: SessionStore = { ...inner, sweepInterval: 20, sweep: (now) => (sweeps++, inner.sweep(now)) };
  const now = Date.now();
  await store.set('expired', '{}', now - 1);
  await store.set('live', '{}', now + 60_000);
  const app = sessionApp({ secret: SECRET, store });
  await app.ready();
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.ok(sweeps >= 2, `${sweeps} sweeps`);
  assert.equal(await inner.sweep(Date.now()), 0); // already swept
  assert.equal((await store.get('live'))?.data, '{}');
  await app.close();
  const after = sweeps;
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal(sweeps, after);
});
