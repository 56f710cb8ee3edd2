import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BookStore } from './book-store.ts';
import { openDatabase } from './open-database.ts';

test('BookStore on a file database: every method, with ids as strings in creation order', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-book-store-'));
  const db = openDatabase(join(dir, 'books.sqlite'));
  try {
    const store = new BookStore(db);
    assert.deepEqual(store.list(), []);
    assert.deepEqual(store.create('Dune', '1'), { id: '1', name: 'Dune' });
    assert.deepEqual(store.create('Emma', '2'), { id: '2', name: 'Emma' });
    assert.deepEqual(store.create('Untitled'), { id: '3', name: 'Untitled' });
    assert.deepEqual(store.list(), [{ id: '1', name: 'Dune' }, { id: '2', name: 'Emma' }, { id: '3', name: 'Untitled' }]);
    assert.deepEqual(store.list('2'), [{ id: '2', name: 'Emma' }]);
    assert.deepEqual(store.get('1'), { id: '1', name: 'Dune' });
    assert.deepEqual(store.get('1', '1'), { id: '1', name: 'Dune' });
    assert.equal(store.get('1', '2'), undefined);
    assert.equal(store.get('3', '1'), undefined);
    assert.equal(store.get('99'), undefined);
    assert.deepEqual(store.update('3', 'Persuasion'), { id: '3', name: 'Persuasion' });
    assert.equal(store.update('99', 'Nothing'), undefined);
    assert.deepEqual(store.checkout('1'), { id: '1', name: 'Dune', checked_out: true });
    assert.deepEqual(db.prepare('SELECT id, checked_out FROM books ORDER BY id').all(), [
      { id: 1, checked_out: 1 },
      { id: 2, checked_out: 0 },
      { id: 3, checked_out: 0 },
    ]);
    assert.equal(store.checkout('99'), undefined);
    assert.equal(store.remove('2'), true);
    assert.equal(store.remove('2'), false);
    assert.deepEqual(store.list(), [{ id: '1', name: 'Dune' }, { id: '3', name: 'Persuasion' }]);
    // AUTOINCREMENT: the id of a removed book is never handed out again.
    assert.deepEqual(store.create('Emma'), { id: '4', name: 'Emma' });
    assert.deepEqual(store.authorList(), [{ id: '1', name: 'Frank Herbert' }, { id: '2', name: 'Jane Austen' }]);
    assert.deepEqual(store.author('2'), { id: '2', name: 'Jane Austen' });
    assert.equal(store.author('3'), undefined);
    // foreign_keys = ON: a book of an unknown author is refused by the database itself.
    assert.throws(() => store.create('Orphan', '3'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('new BookStore() opens its own database in memory: two stores share nothing', () => {
  const first = new BookStore();
  const second = new BookStore();
  assert.deepEqual(first.create('Dune'), { id: '1', name: 'Dune' });
  assert.deepEqual(second.list(), []);
  assert.deepEqual(second.create('Emma'), { id: '1', name: 'Emma' });
});
