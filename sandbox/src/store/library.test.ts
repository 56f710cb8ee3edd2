import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Library } from './library.ts';

test('transactions take turns: a second start waits until the first is cleared, without blocking the event loop', async () => {
  const library = new Library(':memory:');
  const { transactions, books } = library;
  const order: string[] = [];
  await transactions.start();
  books.create('first');
  const second = Promise.resolve(transactions.start()).then(() => order.push('second started'));
  await new Promise((done) => setImmediate(done));
  order.push('first still running');
  transactions.commit();
  transactions.clear();
  await second;
  books.create('second');
  transactions.rollback();
  transactions.clear();
  assert.deepEqual(order, ['first still running', 'second started']);
  assert.deepEqual(books.list(), [{ id: '1', name: 'first' }]);
  library.close();
});

test('clear rolls back what is still open and never throws; a read transaction sees one snapshot', async () => {
  const library = new Library(':memory:');
  await library.transactions.start();
  library.books.create('unfinished');
  library.transactions.clear();
  assert.equal(library.db.inTransaction, false);
  assert.deepEqual(library.books.list(), []);
  library.transactions.clear();
  await library.transactions.start_ro();
  assert.deepEqual(library.books.list(), []);
  library.transactions.clear();
  library.close();
});

test('a file database keeps its books across two openings', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-library-'));
  try {
    const file = join(dir, 'books.sqlite');
    const first = new Library(file);
    first.books.create('Dune', '1');
    first.books.checkout('1');
    first.close();
    const second = new Library(file);
    assert.deepEqual(second.books.list(), [{ id: '1', name: 'Dune' }]);
    assert.deepEqual(second.books.list('1'), [{ id: '1', name: 'Dune' }]);
    assert.equal(second.books.get('1', '2'), undefined);
    assert.deepEqual(second.books.authorList(), [{ id: '1', name: 'Frank Herbert' }, { id: '2', name: 'Jane Austen' }]);
    assert.equal(second.books.remove('1'), true);
    assert.equal(second.books.remove('1'), false);
    second.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
