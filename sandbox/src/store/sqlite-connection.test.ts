import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteConnection } from './sqlite-connection.ts';

test('a file connection: its folder is made, WAL, foreign keys, no busy timeout (the dialect waits, on timers); a read-only one refuses writes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-sqlite-connection-'));
  try {
    const file = join(dir, 'nested', 'books.sqlite');
    // A reader never creates the database: the writer does, folder included.
    assert.throws(() => openSqliteConnection(file, { readonly: true }), { name: 'TypeError', message: 'Cannot open database because the directory does not exist' });
    const writer = openSqliteConnection(file);
    assert.equal(existsSync(file), true);
    assert.equal(writer.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(writer.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(writer.pragma('busy_timeout', { simple: true }), 0);
    writer.exec('CREATE TABLE t (x INTEGER)');
    const reader = openSqliteConnection(file, { readonly: true });
    assert.equal(reader.pragma('journal_mode', { simple: true }), 'wal');
    assert.deepEqual(reader.prepare('SELECT count(*) AS n FROM t').get(), { n: 0 });
    assert.throws(() => reader.exec('INSERT INTO t VALUES (1)'), { code: 'SQLITE_READONLY' });
    reader.close();
    writer.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test(':memory: stays in memory (no WAL there: SQLite keeps its journal in memory too)', () => {
  const db = openSqliteConnection(':memory:');
  assert.equal(db.pragma('journal_mode', { simple: true }), 'memory');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  db.close();
});
