// A request ends once, on a pooled PostgreSQL client (issue #36, item 1): a handler that resumes
// after its 503 gets no transaction — not its own, which was rolled back, and never the pooled
// client that went on to the next request — so its INSERT lands nowhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { abort, createApp, expose, TransactionHook } from '@hickory/app';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';

describe('the end of a request on node-postgres', { skip: postgresSkipReason() }, () => {
  let cluster: Cluster;
  let pool: pg.Pool;
  before(async () => {
    cluster = await startCluster('request_end');
    // One client: the next request gets the very client the late handler's transaction had.
    pool = new pg.Pool({ connectionString: cluster.url, max: 1, connectionTimeoutMillis: 5_000 });
    await pool.query('CREATE TABLE logins (name TEXT NOT NULL)');
  });
  after(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  test('a late handler\'s write reaches neither its own transaction nor the next request\'s', { timeout: 60_000 }, async () => {
    // docs/hooks.md's recipe, as users copy it.
    const tx = new TransactionHook<pg.PoolClient>({
      start: async () => {
        const client = await pool.connect().catch(() => abort(503, 'The database is busy.', { 'Retry-After': '1' }));
        await client.query('BEGIN');
        return client;
      },
      start_ro: async () => {
        const client = await pool.connect().catch(() => abort(503, 'The database is busy.', { 'Retry-After': '1' }));
        await client.query('BEGIN READ ONLY');
        return client;
      },
      commit: ({ transaction }) => transaction!.query('COMMIT'),
      rollback: ({ transaction }) => transaction!.query('ROLLBACK'),
      clear: async ({ transaction }) => {
        if (transaction === undefined) return;
        await transaction.query('ROLLBACK').catch(() => undefined);
        transaction.release();
      },
    });
    let lateError: unknown;
    let resumed!: () => void;
    const lateDone = new Promise<void>((done) => (resumed = done));
    let nextStarted!: () => void;
    const nextRunning = new Promise<void>((done) => (nextStarted = done));
    class Root {
      @expose('json') async slow() {
        await tx.transaction().query("INSERT INTO logins VALUES ('A-before-503')");
        // The database answers after handler_timeout; meanwhile the next request took the client.
        await nextRunning;
        try {
          await tx.transaction().query("INSERT INTO logins VALUES ('A-answered-503')");
        } catch (error) {
          lateError = error;
        }
        resumed();
        return { late: true };
      }
      @expose('json') async next() {
        await tx.transaction().query("INSERT INTO logins VALUES ('B')");
        nextStarted();
        await lateDone;
        return { next: true };
      }
    }
    const app = createApp({ root: new Root(), hooks: [tx], logger: false, handler_timeout: 300 });
    try {
      const slow = await app.inject({ method: 'POST', url: '/slow' });
      assert.equal(slow.statusCode, 503);
      const next = await app.inject({ method: 'POST', url: '/next' });
      assert.equal(next.statusCode, 200);
      assert.equal((lateError as { code?: string }).code, 'HICKORY_ERR_HOOKS_TRANSACTION_ENDED');
      const rows = await pool.query<{ name: string }>('SELECT name FROM logins ORDER BY name');
      assert.deepEqual(rows.rows.map((row) => row.name), ['B']);
      await sleep(10);
      assert.equal(pool.totalCount - pool.idleCount, 0, 'every client given back');
    } finally {
      await app.close();
    }
  });
});
