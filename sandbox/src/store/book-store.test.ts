import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BookStore } from './book-store.ts';
import { openSqliteDatabase } from './sqlite-database.ts';

test('BookStore on a SQLite file: every method, ids as strings in creation order, impossible ids not found', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-book-store-'));
  const database = await openSqliteDatabase(join(dir, 'books.sqlite'));
  try {
    const trx = await database.begin();
    const store = new BookStore(trx);
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(await store.create('Dune', '1'), { id: '1', name: 'Dune' });
    assert.deepEqual(await store.create('Emma', '2'), { id: '2', name: 'Emma' });
    assert.deepEqual(await store.create('Untitled'), { id: '3', name: 'Untitled' });
    assert.deepEqual(await store.list(), [{ id: '1', name: 'Dune' }, { id: '2', name: 'Emma' }, { id: '3', name: 'Untitled' }]);
    assert.deepEqual(await store.list('2'), [{ id: '2', name: 'Emma' }]);
    assert.deepEqual(await store.list('abc'), []);
    assert.deepEqual(await store.get('1'), { id: '1', name: 'Dune' });
    assert.deepEqual(await store.get('01'), { id: '1', name: 'Dune' });
    assert.deepEqual(await store.get('1', '1'), { id: '1', name: 'Dune' });
    assert.equal(await store.get('1', '2'), undefined);
    assert.equal(await store.get('3', '1'), undefined);
    for (const id of ['99', '0', '-1', '1.5', 'abc', '', '99999999999', '2147483648']) assert.equal(await store.get(id), undefined, id);
    assert.deepEqual(await store.update('3', 'Persuasion'), { id: '3', name: 'Persuasion' });
    assert.equal(await store.update('99', 'Nothing'), undefined);
    assert.equal(await store.update('x', 'Nothing'), undefined);
    assert.deepEqual(await store.checkout('1'), { id: '1', name: 'Dune', checked_out: true });
    assert.deepEqual(await trx.selectFrom('books').select(['id', 'checked_out']).orderBy('id').execute(), [
      { id: 1, checked_out: 1 },
      { id: 2, checked_out: 0 },
      { id: 3, checked_out: 0 },
    ]);
    assert.equal(await store.checkout('99'), undefined);
    assert.equal(await store.remove('2'), true);
    assert.equal(await store.remove('2'), false);
    assert.equal(await store.remove('two'), false);
    assert.deepEqual(await store.list(), [{ id: '1', name: 'Dune' }, { id: '3', name: 'Persuasion' }]);
    // AUTOINCREMENT: the id of a removed book is never handed out again.
    assert.deepEqual(await store.create('Emma'), { id: '4', name: 'Emma' });
    assert.deepEqual(await store.authorList(), [{ id: '1', name: 'Frank Herbert' }, { id: '2', name: 'Jane Austen' }]);
    assert.deepEqual(await store.author('2'), { id: '2', name: 'Jane Austen' });
    assert.equal(await store.author('3'), undefined);
    assert.equal(await store.author('Jane'), undefined);
    // foreign_keys = ON: a book of an unknown author is refused by the database itself.
    await assert.rejects(store.create('Orphan', '3'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    await assert.rejects(store.create('Orphan', 'x'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    await trx.commit().execute();
    await database.release(trx);
    // Committed: a read-only transaction (another connection) sees the books.
    const read = await database.beginReadOnly();
    assert.deepEqual(await new BookStore(read).list(), [{ id: '1', name: 'Dune' }, { id: '3', name: 'Persuasion' }, { id: '4', name: 'Emma' }]);
    await database.release(read);
  } finally {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
});
