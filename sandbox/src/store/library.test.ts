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

test('a write after start() is gone after rollback() and kept after commit(); the functions work detached', async () => {
  const library = new Library(':memory:');
  // As a TransactionHook receives them: bare functions, no `this`.
  const { start, commit, rollback, clear } = library.transactions;
  await start();
  library.books.create('rolled back');
  rollback();
  clear();
  assert.equal(library.db.inTransaction, false);
  assert.deepEqual(library.books.list(), []);
  await start();
  library.books.create('committed');
  commit();
  clear();
  assert.equal(library.db.inTransaction, false);
  // AUTOINCREMENT: the rolled-back insert's id was not recorded, so the committed book is 1.
  assert.deepEqual(library.books.list(), [{ id: '1', name: 'committed' }]);
  library.close();
});

test('start_ro() does not forbid writes: a deferred BEGIN upgrades to a write, unless another connection wrote since its snapshot', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-library-ro-'));
  try {
    const file = join(dir, 'books.sqlite');
    const reader = new Library(file);
    const writer = new Library(file);
    // Nobody wrote since the snapshot: the write succeeds inside the read transaction, and clear() drops it.
    await reader.transactions.start_ro();
    assert.deepEqual(reader.books.create('written in start_ro'), { id: '1', name: 'written in start_ro' });
    reader.transactions.clear();
    assert.deepEqual(reader.books.list(), []);
    // The snapshot is taken at the first read; a commit by another connection after it stays unseen…
    await reader.transactions.start_ro();
    assert.deepEqual(reader.books.list(), []);
    writer.books.create('Dune');
    assert.deepEqual(reader.books.list(), []);
    // …and a write on that stale snapshot cannot be upgraded: WAL says SQLITE_BUSY_SNAPSHOT at once.
    assert.throws(() => reader.books.create('Emma'), { code: 'SQLITE_BUSY_SNAPSHOT' });
    assert.equal(reader.db.inTransaction, true);
    reader.transactions.clear();
    assert.equal(reader.db.inTransaction, false);
    assert.deepEqual(reader.books.list(), [{ id: '1', name: 'Dune' }]);
    reader.close();
    writer.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('clear() gives the turn back even when its ROLLBACK fails (an unfinished iterator keeps the connection busy)', async () => {
  const library = new Library(':memory:');
  library.books.create('Dune');
  await library.transactions.start();
  const rows = library.db.prepare('SELECT id FROM books').iterate();
  rows.next();
  assert.doesNotThrow(() => library.transactions.clear());
  assert.equal(library.db.inTransaction, true);
  rows.return?.();
  // The next request is not left waiting: its start() runs, after rolling back what was left open.
  library.transactions.clear();
  await library.transactions.start();
  assert.equal(library.db.inTransaction, true);
  library.transactions.rollback();
  library.transactions.clear();
  library.close();
});

test('a start() whose BEGIN fails keeps the turn until its clear(), so that clear cannot roll back the next request', async () => {
  const library = new Library(':memory:');
  const { transactions, books } = library;
  // A transaction left open on the connection makes the next BEGIN IMMEDIATE fail.
  library.db.exec('BEGIN');
  await assert.rejects(async () => transactions.start(), { name: 'SqliteError', message: 'cannot start a transaction within a transaction' });
  // The next request waits for the failed one's clear(), and only then begins.
  let begun = false;
  const next = Promise.resolve(transactions.start()).then(() => (begun = true));
  await new Promise((done) => setImmediate(done));
  assert.equal(begun, false);
  transactions.clear();
  await next;
  books.create('Dune');
  transactions.commit();
  transactions.clear();
  assert.deepEqual(books.list(), [{ id: '1', name: 'Dune' }]);
  library.close();
});
