import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SessionStore } from './session-store.ts';
import { openSqliteDatabase } from './sqlite-database.ts';

test('sessions: live until they expire, removed once, expired rows forgotten when a session starts', async () => {
  const database = await openSqliteDatabase(':memory:');
  const trx = await database.begin();
  try {
    const sessions = new SessionStore(trx);
    const now = 1_800_000_000_000;
    await sessions.create('a'.repeat(64), now + 1000, now);
    await sessions.create('b'.repeat(64), now + 10, now);
    assert.equal(await sessions.isLive('a'.repeat(64), now), true);
    assert.equal(await sessions.isLive('b'.repeat(64), now + 9), true);
    assert.equal(await sessions.isLive('b'.repeat(64), now + 10), false);
    assert.equal(await sessions.isLive('c'.repeat(64), now), false);
    await sessions.create('c'.repeat(64), now + 5000, now + 100);
    assert.deepEqual(await trx.selectFrom('sessions').select('id_hash').orderBy('id_hash').execute(), [{ id_hash: 'a'.repeat(64) }, { id_hash: 'c'.repeat(64) }]);
    assert.equal(await sessions.remove('a'.repeat(64)), true);
    assert.equal(await sessions.remove('a'.repeat(64)), false);
    assert.equal(await sessions.isLive('a'.repeat(64), now), false);
  } finally {
    await database.release(trx);
    await database.close();
  }
});
