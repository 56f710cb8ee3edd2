// @hickory/session's sqlStore on PostgreSQL (a throwaway cluster): the table it creates, the
// bounded sweep, and two kernels sharing one store, as two instances behind nginx would.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKernel, request, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { sessionPlugin, sqlStore } from '@hickory/session';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';

const SECRET = 'postgres-test-secret-of-32-characters-at-least';

class Root {
  @expose('json') count() {
    request.session['visits'] = Number(request.session['visits'] ?? 0) + 1;
    return { visits: request.session['visits'], instance: request.host };
  }
  @expose('json') read() {
    return { ...request.session };
  }
  @expose() login(user: string) {
    request.session.regenerate();
    request.session['user'] = user;
    return 'in';
  }
}

function database(cluster: Cluster): Kysely<any> {
  return new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: cluster.url, max: 4 }) }) });
}

function instance(db: Kysely<any>): Kernel {
  return createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(sessionPlugin, { secret: SECRET, store: sqlStore(db, { sweepBatch: 2, sweepInterval: 0 }) });
}

function sid(header: string | string[] | undefined): string {
  const line = (Array.isArray(header) ? header : [header ?? '']).find((value) => value.startsWith('sid='));
  assert.ok(line, `no session cookie in ${JSON.stringify(header)}`);
  return line.slice(0, line.indexOf(';'));
}

describe('sqlStore on PostgreSQL', { skip: postgresSkipReason() }, () => {
  let cluster: Cluster;
  let dbA: Kysely<any>;
  let dbB: Kysely<any>;
  let a: Kernel;
  let b: Kernel;

  before(async () => {
    cluster = await startCluster('sessions');
    [dbA, dbB] = [database(cluster), database(cluster)];
    [a, b] = [instance(dbA), instance(dbB)];
    // Both create the table if missing, at the same time.
    await Promise.all([a.ready(), b.ready()]);
  });

  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([dbA?.destroy(), dbB?.destroy()]);
    await cluster?.stop();
  });

  test('the table and its expiry index are created, with a bigint expiry', async () => {
    const { rows } = await sql<{ column_name: string; data_type: string }>`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'hickory_sessions' ORDER BY column_name`.execute(dbA);
    assert.deepEqual(rows, [
      { column_name: 'data', data_type: 'text' },
      { column_name: 'expires', data_type: 'bigint' },
      { column_name: 'id', data_type: 'character varying' },
    ]);
    const indexes = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = 'hickory_sessions' ORDER BY indexname`.execute(dbA);
    assert.deepEqual(indexes.rows.map((r) => r.indexname), ['hickory_sessions_expires', 'hickory_sessions_pkey']);
  });

  test('a session made on one instance is read and changed on the other, and regenerated there', async () => {
    const cookie = sid((await a.inject({ url: '/count', headers: { host: 'a.example' } })).headers['set-cookie']);
    assert.deepEqual((await b.inject({ url: '/count', headers: { host: 'b.example', cookie } })).json(), { visits: 2, instance: 'b.example' });
    assert.deepEqual((await a.inject({ url: '/read', headers: { cookie } })).json(), { visits: 2 });
    const signedIn = sid((await b.inject({ url: '/login?user=ann', headers: { cookie } })).headers['set-cookie']);
    assert.notEqual(signedIn, cookie);
    assert.deepEqual((await a.inject({ url: '/read', headers: { cookie: signedIn } })).json(), { visits: 2, user: 'ann' });
    assert.deepEqual((await a.inject({ url: '/read', headers: { cookie } })).json(), {});
  });

  test('expired sessions are never returned and are swept a bounded number at a time', async () => {
    const store = sqlStore(dbA, { sweepBatch: 2 });
    const now = Date.now();
    for (let i = 0; i < 3; i++) await store.set(`old${i}`, '{}', now - 1000);
    await store.set('fresh', '{"a":1}', now + 60_000);
    assert.equal(await store.get('old0'), undefined);
    assert.deepEqual(await store.get('fresh'), { data: '{"a":1}', expires: now + 60_000 });
    assert.equal(await store.sweep(now), 2);
    assert.equal(await store.sweep(now), 1);
    assert.equal(await store.sweep(now), 0);
    const { rows } = await sql<{ id: string }>`SELECT id FROM hickory_sessions WHERE id LIKE 'old%' OR id = 'fresh'`.execute(dbA);
    assert.deepEqual(rows, [{ id: 'fresh' }]);
  });

  test('100 concurrent requests over the two instances each keep their own session', async () => {
    const cookies = await Promise.all(Array.from({ length: 100 }, async (_, i) => sid((await (i % 2 ? a : b).inject('/count')).headers['set-cookie'])));
    await Promise.all(cookies.map((cookie, i) => (i % 2 ? b : a).inject({ url: '/count', headers: { cookie } })));
    const read = await Promise.all(cookies.map(async (cookie, i) => (await (i % 3 ? a : b).inject({ url: '/read', headers: { cookie } })).json() as { visits: number }));
    assert.deepEqual(read, cookies.map(() => ({ visits: 2 })));
    assert.equal(new Set(cookies).size, 100);
  });
});
