// @hickory/rate-limit on PostgreSQL: two kernels (two instances of one app) on one throwaway
// cluster share their counts; a store that goes down leaves each counting in its own memory.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createKernel, type Kernel, type Logger } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { rateLimitPlugin, rate_limit } from '@hickory/rate-limit';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';

class Root {
  @expose() index() {
    return 'ok';
  }
  @rate_limit({ points: 4, duration: 60 }) @expose() login() {
    return 'welcome';
  }
}

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end();
  });
}

describe('rate limits shared through PostgreSQL', { skip: postgresSkipReason() }, () => {
  let cluster: Cluster;
  const pools: pg.Pool[] = [];
  const kernels: Kernel[] = [];
  const errors: string[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (message: string) => void errors.push(message) };

  before(async () => {
    cluster = await startCluster('ratelimit');
  });

  after(async () => {
    for (const kernel of kernels) await kernel.close();
    for (const pool of pools) await pool.end();
    await cluster?.stop();
  });

  function instance(table: string): Kernel {
    const pool = new pg.Pool({ connectionString: cluster.url, max: 10, connectionTimeoutMillis: 2000 });
    pool.on('error', () => {}); // an idle client losing its server (the outage test) is not a crash
    pools.push(pool);
    const kernel = createKernel({ root: new Root(), logger }).use(dispatchPlugin).use(rateLimitPlugin, { points: 10, duration: 60, store: pool, tableName: table });
    kernels.push(kernel);
    return kernel;
  }

  test('two instances, 100 concurrent requests split between them: exactly `points` pass, app-wide and per handler', { timeout: 60_000 }, async () => {
    const [a, b] = [instance('shared_limits'), instance('shared_limits')];
    // Both create the table at ready(), at the same time.
    await Promise.all([a.ready(), b.ready()]);
    const [first, second] = await Promise.all([a.listen({ port: 0, host: '127.0.0.1' }), b.listen({ port: 0, host: '127.0.0.1' })]);
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => get(`${i % 2 === 0 ? first.url : second.url}/`)));
    assert.equal(statuses.filter((status) => status === 200).length, 10);
    assert.equal(statuses.filter((status) => status === 429).length, 90);

    const check = new pg.Client({ connectionString: cluster.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ key: string; points: number }>('SELECT key, points FROM shared_limits ORDER BY key');
      assert.deepEqual(rows, [{ key: 'app:127.0.0.1', points: 100 }]);
    } finally {
      await check.end();
    }

    // The handler's own limit (4) is shared too; the app-wide one is spent, so use fresh instances.
    const [c, d] = [instance('handler_limits'), instance('handler_limits')];
    const [third, fourth] = await Promise.all([c.listen({ port: 0, host: '127.0.0.1' }), d.listen({ port: 0, host: '127.0.0.1' })]);
    const logins = await Promise.all(Array.from({ length: 40 }, (_, i) => get(`${i % 2 === 0 ? third.url : fourth.url}/login`)));
    assert.equal(logins.filter((status) => status === 200).length, 4);
    assert.equal(errors.length, 0);
  });

  test('the database goes down: each instance keeps limiting in its own memory, and says so once', { timeout: 60_000 }, async () => {
    const [e, f] = [instance('outage_limits'), instance('outage_limits')];
    await Promise.all([e.ready(), f.ready()]);
    assert.equal((await e.inject('/')).statusCode, 200);
    await cluster.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await e.inject('/')).statusCode);
    // Ten in memory (the one the store counted before the outage is not known there), then 429.
    assert.deepEqual(statuses, [...Array<number>(10).fill(200), 429, 429]);
    assert.equal((await f.inject('/')).statusCode, 200, 'the other instance counts its own');
    assert.equal(errors.filter((message) => /the PostgreSQL store failed/.test(message)).length, 2, 'one line per instance');
  });
});
