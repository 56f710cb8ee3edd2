import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Logger } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { rateLimitPlugin, type PostgresPool } from './index.ts';

class Root {
  @expose() index() {
    return 'ok';
  }
}

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info() {}, warn() {}, error: (message: string) => void errors.push(message) };
}

// A Pool whose table creation works and whose counting queries fail (or never answer).
function brokenPool(counting: () => Promise<never>): PostgresPool & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    query(config) {
      texts.push(config.text.trim().split(/\s+/)[0]!);
      return config.text.startsWith('CREATE TABLE') ? Promise.resolve({ rows: [] }) : counting();
    },
  };
}

test('a failing store: the limit holds per instance, in memory, and the failure is logged once a minute', async () => {
  const logger = recordingLogger();
  const pool = brokenPool(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')));
  const app = createKernel({ root: new Root(), logger }).use(dispatchPlugin).use(rateLimitPlugin, { points: 3, duration: 60, store: pool });
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await app.inject('/')).statusCode);
  assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  assert.equal(pool.texts.filter((text) => text === 'INSERT').length, 5, 'the store was asked every time');
  assert.equal(logger.errors.length, 1);
  assert.match(logger.errors[0]!, /rate-limit: the PostgreSQL store failed; counting in this process's memory/);
  const last = await app.inject('/');
  assert.equal(last.headers['ratelimit'], '"default";r=0;t=60');
  await app.close();
});

test('a store that does not answer within storeTimeout counts in memory instead: no request waits longer', async () => {
  const pool = brokenPool(() => new Promise<never>(() => {}));
  const app = createKernel({ root: new Root(), logger: recordingLogger() }).use(dispatchPlugin).use(rateLimitPlugin, { points: 2, duration: 60, store: pool, storeTimeout: 50 });
  const started = performance.now();
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await app.inject('/')).statusCode);
  assert.deepEqual(statuses, [200, 200, 429]);
  assert.ok(performance.now() - started < 1000, 'three requests, each bounded by 50 ms');
  await app.close();
});

test('a store whose table cannot be created fails ready() with HICKORY_ERR_RATE_LIMIT_STORE naming the table', async () => {
  const pool: PostgresPool = { query: () => Promise.reject(new Error('permission denied for schema public')) };
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(rateLimitPlugin, { points: 2, duration: 60, store: pool, tableName: 'limits' });
  await assert.rejects(app.ready(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_RATE_LIMIT_STORE');
    assert.match(error.message, /could not create its table "limits" in PostgreSQL \(permission denied for schema public\)/);
    return true;
  });
});
