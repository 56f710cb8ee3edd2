import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { abort, createKernel } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { hooksPlugin } from '@hickory/hooks';
import { Library } from './library.ts';

test('a Library opens nothing until used; a failed opening is tried again; books outlive close()', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-library-'));
  try {
    // A file where the database's folder should be: opening fails until it is gone.
    await writeFile(join(dir, 'data'), 'not a folder');
    const file = join(dir, 'data', 'books.sqlite');
    const library = new Library(file);
    assert.equal(library.engine, 'SQLite');
    await assert.rejects(library.open(), { code: 'EEXIST' });
    await rm(join(dir, 'data'));
    assert.equal(existsSync(file), false);
    const database = await library.open();
    assert.equal(await library.open(), database);
    const trx = await database.begin();
    await trx.insertInto('books').values({ name: 'Dune' }).execute();
    await trx.commit().execute();
    await database.release(trx);
    await library.close();
    await library.close();
    assert.deepEqual(await library.read((db) => db.selectFrom('books').select('name').execute()), [{ name: 'Dune' }]);
    await library.close();
    assert.equal(new Library('postgres://127.0.0.1:1/books').engine, 'PostgreSQL');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('library.books() is the request\'s own: a handler\'s writes are kept on success, dropped on failure; none outside a request', async () => {
  const library = new Library(':memory:');
  class Root {
    @expose('json') async add(name: string) { return library.books().create(name); }
    @expose('json') async add_then_fail(name: string) { await library.books().create(name); return abort(409, 'Written, then failed.'); }
    @expose('json') async index() { return library.books().list(); }
  }
  const app = createKernel({ root: new Root(), hooks: [library.hook], logger: false }).use(hooksPlugin);
  try {
    assert.equal((await app.inject({ method: 'POST', url: '/add?name=Dune' })).body, '{"id":"1","name":"Dune"}');
    assert.equal((await app.inject({ method: 'POST', url: '/add_then_fail?name=Ghost' })).statusCode, 409);
    assert.equal((await app.inject('/')).body, '[{"id":"1","name":"Dune"}]');
    assert.throws(() => library.books(), { code: 'HICKORY_ERR_HOOKS_NO_TRANSACTION' });
  } finally {
    await app.close();
    await library.close();
  }
});

test('a request that cannot have the writer within its bound is answered 503 with Retry-After, and the next one is served', async () => {
  const library = new Library(':memory:', { writeWaitMs: 50 });
  class Root {
    @expose('json') async add(name: string) { return library.books().create(name); }
  }
  const app = createKernel({ root: new Root(), hooks: [library.hook], logger: false }).use(hooksPlugin);
  try {
    const database = await library.open();
    const holder = await database.begin();
    const refused = await app.inject({ method: 'POST', url: '/add?name=Dune', headers: { accept: 'application/json' } });
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '1');
    // A 5xx says nothing of the server's inside to the client; Retry-After says when to come back.
    assert.equal(refused.json().description, 'The server could not complete the request.');
    await database.release(holder);
    assert.equal((await app.inject({ method: 'POST', url: '/add?name=Dune' })).body, '{"id":"1","name":"Dune"}');
  } finally {
    await app.close();
    await library.close();
  }
});

test('library.read() inside a request whose transaction holds the one :memory: connection fails at once, naming tx.transaction()', async () => {
  const library = new Library(':memory:', { writeWaitMs: 2000 });
  class Root {
    @expose('json') async add_and_check(name: string) {
      await library.books().create(name);
      const started = performance.now();
      const error = await library.read((db) => db.selectFrom('books').select('id').execute()).then(() => undefined, (e: Error) => e);
      return { message: error?.message, ms: performance.now() - started };
    }
  }
  const app = createKernel({ root: new Root(), hooks: [library.hook], logger: false }).use(hooksPlugin);
  try {
    const answer = (await app.inject({ method: 'POST', url: '/add_and_check?name=Dune' })).json() as { message: string; ms: number };
    assert.match(answer.message, /use tx\.transaction\(\) inside a request that holds the transaction/);
    // Not after writeWaitMs (2 s), nor handler_timeout.
    assert.ok(answer.ms < 100, `the error took ${Math.round(answer.ms)} ms`);
    // Outside a request, read() takes the connection as before.
    assert.deepEqual(await library.read((db) => db.selectFrom('books').select('name').execute()), [{ name: 'Dune' }]);
  } finally {
    await app.close();
    await library.close();
  }
});
