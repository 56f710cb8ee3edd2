import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { HTTPError } from '@hickory/core';
import { openSqliteDatabase } from './sqlite-database.ts';
import { SEED_BOOKS } from './migrations.ts';
import { inFolder } from './fixtures/in-folder.ts';

const run = promisify(execFile);

// Resolves to 'waiting' when the promise has not settled within `ms`.
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'waiting'> {
  return Promise.race([promise, sleep(ms).then(() => 'waiting' as const)]);
}

const busy = (error: unknown) => {
  assert.ok(error instanceof HTTPError);
  assert.equal(error.status, 503);
  assert.equal(error.detail, 'The database is busy: try again in a moment.');
  assert.deepEqual(error.headers, { 'Retry-After': '1' });
  return true;
};

test('a read-only transaction never waits for the writer, and sees only what was committed before it', async () => {
  await inFolder('hickory-sqlite-database-', async (file) => {
    const database = await openSqliteDatabase(file);
    try {
      const write = await database.begin();
      await write.insertInto('books').values({ name: 'Dune' }).execute();
      const read = await within(database.beginReadOnly(), 200);
      assert.notEqual(read, 'waiting', 'the read began while the writer held its turn');
      if (read === 'waiting') return;
      assert.deepEqual(await read.selectFrom('books').select('name').execute(), []);
      await write.commit().execute();
      await database.release(write);
      // Its snapshot was taken before the commit.
      assert.deepEqual(await read.selectFrom('books').select('name').execute(), []);
      await database.release(read);
      const later = await database.beginReadOnly();
      assert.deepEqual(await later.selectFrom('books').select('name').execute(), [{ name: 'Dune' }]);
      // Read-only connections: a write in a read transaction is refused by SQLite itself.
      await assert.rejects(later.insertInto('books').values({ name: 'Emma' }).execute(), { code: 'SQLITE_READONLY' });
      await database.release(later);
    } finally {
      await database.close();
    }
  });
});

test('writers take turns; a wait past its bound is a 503 with Retry-After, and the turn comes back after release', async () => {
  await inFolder('hickory-sqlite-database-', async (file) => {
    const database = await openSqliteDatabase(file, { writeWaitMs: 100 });
    try {
      const first = await database.begin();
      const second = database.begin();
      assert.equal(await within(second, 30), 'waiting');
      await assert.rejects(second, busy);
      const third = database.begin();
      await first.insertInto('books').values({ name: 'Dune' }).execute();
      await first.commit().execute();
      await database.release(first);
      const next = await third;
      assert.deepEqual(await next.selectFrom('books').select('name').execute(), [{ name: 'Dune' }]);
      await database.release(next);
    } finally {
      await database.close();
    }
  });
});

test('release rolls back what is still open, gives the turn back once, and a second release does nothing', async () => {
  await inFolder('hickory-sqlite-database-', async (file) => {
    const database = await openSqliteDatabase(file, { writeWaitMs: 100 });
    try {
      const first = await database.begin();
      await first.insertInto('books').values({ name: 'unfinished' }).execute();
      await database.release(first);
      assert.equal(first.isRolledBack, true);
      await database.release(first);
      // The turn was given back exactly once: one writer now, and the next waits for it.
      const second = await database.begin();
      await assert.rejects(database.begin(), busy);
      assert.deepEqual(await second.selectFrom('books').select('name').execute(), []);
      await assert.rejects(first.selectFrom('books').select('name').execute(), /already rolled back/);
      await database.release(second);
    } finally {
      await database.close();
    }
  });
});

test('readers are bounded too: past readWaitMs, a 503; a released reader is used again', async () => {
  await inFolder('hickory-sqlite-database-', async (file) => {
    const database = await openSqliteDatabase(file, { readers: 1, readWaitMs: 80 });
    try {
      const first = await database.beginReadOnly();
      await assert.rejects(database.beginReadOnly(), busy);
      // A writer is not a reader: it is not held up by them.
      const write = await database.begin();
      await database.release(write);
      await database.release(first);
      const again = await database.beginReadOnly();
      assert.deepEqual(await again.selectFrom('authors').select('name').orderBy('id').execute(), [{ name: 'Frank Herbert' }, { name: 'Jane Austen' }]);
      await database.release(again);
      // read() takes a reader for its work alone, outside any transaction.
      assert.equal(await database.read(async (db) => (await db.selectFrom('authors').select('id').execute()).length), 2);
    } finally {
      await database.close();
    }
  });
});

test(':memory: is one connection: a read-only transaction takes the writer\'s turn', async () => {
  const database = await openSqliteDatabase(':memory:', { writeWaitMs: 60 });
  try {
    const write = await database.begin();
    await assert.rejects(database.beginReadOnly(), busy);
    await assert.rejects(database.read(async () => 'never'), busy);
    await write.insertInto('books').values({ name: 'Dune' }).execute();
    await write.commit().execute();
    await database.release(write);
    const read = await database.beginReadOnly();
    assert.deepEqual(await read.selectFrom('books').select('name').execute(), [{ name: 'Dune' }]);
    await database.release(read);
  } finally {
    await database.close();
  }
});

// Opens (and so migrates) `file` in another process, as a second `hickory serve` worker would.
function openInAnotherProcess(file: string, seed = false): Promise<string> {
  const script = `import { openSqliteDatabase } from ${JSON.stringify(new URL('./sqlite-database.ts', import.meta.url).href)};
const database = await openSqliteDatabase(process.argv[1], { seed: process.argv[2] === 'seed' });
await database.close();
console.log('migrated');`;
  return run(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script, file, seed ? 'seed' : 'no-seed'], { timeout: 30_000 }).then(({ stdout }) => stdout.trim());
}

test('migrations: a file from before them is adopted as it is (its book kept, no seed books added to it); three processes opening it at once migrate it once', async () => {
  await inFolder('hickory-sqlite-database-', async (file) => {
    // The schema the showcase created before migrations existed, with a book in it.
    const old = new Database(file);
    old.exec(`
      CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE books (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, author_id INTEGER REFERENCES authors(id), checked_out INTEGER NOT NULL DEFAULT 0);
      INSERT INTO authors (id, name) VALUES (1, 'Frank Herbert'), (2, 'Jane Austen');
      INSERT INTO books (name, author_id) VALUES ('Dune', 1);
    `);
    old.close();
    // In one process the second BEGIN IMMEDIATE would wait for the first on the same thread: processes.
    assert.deepEqual(await Promise.all([1, 2, 3].map(() => openInAnotherProcess(file, true))), ['migrated', 'migrated', 'migrated']);
    const first = await openSqliteDatabase(file);
    const rows = await first.read(async (db) => ({
      books: await db.selectFrom('books').select(['id', 'name', 'author_id']).execute(),
      authors: await db.selectFrom('authors').select(['id', 'name']).orderBy('id').execute(),
      tables: (await db.introspection.getTables()).map((table) => table.name).sort(),
    }));
    assert.deepEqual(rows, {
      books: [{ id: 1, name: 'Dune', author_id: 1 }],
      authors: [{ id: 1, name: 'Frank Herbert' }, { id: 2, name: 'Jane Austen' }],
      // The showcase's own sessions table was made, then dropped (sessions are sqlStore's now).
      tables: ['authors', 'books'],
    });
    await first.close();
    const check = new Database(file, { readonly: true });
    assert.deepEqual(check.prepare('SELECT name FROM kysely_migration ORDER BY name').all(), [{ name: '001-authors-and-books' }, { name: '002-sessions' }, { name: '003-seed-books' }, { name: '004-drop-sessions' }]);
    check.close();
  });
});

test('seed books: a new file gets SEED_BOOKS once, however many processes open it at once and however often; without seed, an empty shelf', async () => {
  await inFolder('hickory-sqlite-database-', async (file) => {
    assert.deepEqual(await Promise.all([1, 2, 3].map(() => openInAnotherProcess(file, true))), ['migrated', 'migrated', 'migrated']);
    const seeded = await openSqliteDatabase(file, { seed: true });
    const books = () => seeded.read((db) => db.selectFrom('books').select(['name', 'author_id']).orderBy('id').execute());
    try {
      assert.deepEqual(await books(), SEED_BOOKS);
      // The shelf emptied by hand stays empty across restarts: the seed is a migration, run once.
      const trx = await seeded.begin();
      await trx.deleteFrom('books').execute();
      await trx.commit().execute();
      await seeded.release(trx);
    } finally {
      await seeded.close();
    }
    const again = await openSqliteDatabase(file, { seed: true });
    try {
      assert.deepEqual(await again.read((db) => db.selectFrom('books').select('name').execute()), []);
    } finally {
      await again.close();
    }
  });
  const bare = await openSqliteDatabase(':memory:');
  try {
    assert.deepEqual(await bare.read((db) => db.selectFrom('books').select('name').execute()), []);
  } finally {
    await bare.close();
  }
});
