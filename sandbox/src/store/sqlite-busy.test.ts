import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HTTPError } from '@hickory/core';
import { isSqliteBusy, whenNotBusy } from './sqlite-busy.ts';

const sqliteError = (code: string) => Object.assign(new Error(code), { code });

test('isSqliteBusy: SQLITE_BUSY and its extended codes, but not SQLITE_BUSY_SNAPSHOT (no retry can succeed)', () => {
  assert.equal(isSqliteBusy(sqliteError('SQLITE_BUSY')), true);
  assert.equal(isSqliteBusy(sqliteError('SQLITE_BUSY_RECOVERY')), true);
  assert.equal(isSqliteBusy(sqliteError('SQLITE_BUSY_SNAPSHOT')), false);
  assert.equal(isSqliteBusy(sqliteError('SQLITE_CONSTRAINT')), false);
  assert.equal(isSqliteBusy(undefined), false);
});

test('whenNotBusy retries a busy attempt on timers until it succeeds; any other error at once; past the deadline a 503', async () => {
  let calls = 0;
  assert.equal(await whenNotBusy(() => (++calls < 4 ? Promise.reject(sqliteError('SQLITE_BUSY')) : 'done'), Date.now() + 1000), 'done');
  assert.equal(calls, 4);

  calls = 0;
  await assert.rejects(whenNotBusy(() => (calls++, Promise.reject(sqliteError('SQLITE_BUSY_SNAPSHOT'))), Date.now() + 1000), { code: 'SQLITE_BUSY_SNAPSHOT' });
  assert.equal(calls, 1);

  const started = performance.now();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const refused = await whenNotBusy(() => {
    throw sqliteError('SQLITE_BUSY');
  }, Date.now() + 150).catch((error: unknown) => error);
  clearInterval(timer);
  const ms = performance.now() - started;
  assert.ok(refused instanceof HTTPError);
  assert.equal(refused.status, 503);
  assert.deepEqual(refused.headers, { 'Retry-After': '1' });
  assert.ok(ms >= 145 && ms < 600, `refused after ${Math.round(ms)} ms`);
  // The wait left the event loop free: a 5 ms interval kept firing.
  assert.ok(ticks >= 10, `the interval fired ${ticks} times in ${Math.round(ms)} ms`);
});
