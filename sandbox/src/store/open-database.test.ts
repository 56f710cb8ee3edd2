import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from './open-database.ts';

test('a file database: its directory is made, WAL, foreign keys and a busy timeout; a second opening keeps the rows', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-open-database-'));
  try {
    const file = join(dir, 'nested', 'books.sqlite');
    const first = openDatabase(file);
    assert.equal(existsSync(file), true);
    assert.equal(first.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(first.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(first.pragma('busy_timeout', { simple: true }), 2000);
    first.prepare('INSERT INTO books (name, author_id) VALUES (?, ?)').run('Dune', 1);
    first.close();
    // Opening again neither recreates the tables nor duplicates the authors.
    const second = openDatabase(file);
    assert.deepEqual(second.prepare('SELECT id, name, author_id, checked_out FROM books').all(), [
      { id: 1, name: 'Dune', author_id: 1, checked_out: 0 },
    ]);
    assert.deepEqual(second.prepare('SELECT id, name FROM authors ORDER BY id').all(), [
      { id: 1, name: 'Frank Herbert' },
      { id: 2, name: 'Jane Austen' },
    ]);
    second.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test(':memory: stays in memory (no WAL there: SQLite keeps its journal in memory too)', () => {
  const db = openDatabase(':memory:');
  assert.equal(db.pragma('journal_mode', { simple: true }), 'memory');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  assert.deepEqual(db.prepare('SELECT count(*) AS n FROM authors').get(), { n: 2 });
  db.close();
});
