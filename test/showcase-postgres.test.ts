// The showcase on PostgreSQL, on a throwaway cluster of its own (test/postgres-cluster.ts):
// `DATABASE_URL=postgres://… hickory serve sandbox/config.ts` serves the same pages, two workers
// migrate one fresh database at once, the store's queries, the pool's bound (503), admin sessions
// shared by two instances, and the mixed table of 200 concurrent requests.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { HTTPError, type Kernel } from '@hickory/core';
import { createSandbox } from '@hickory/sandbox/app';
import { SEED_BOOKS } from '@hickory/sandbox/store/migrations';
import { BookStore } from '@hickory/sandbox/store/book-store';
import { openPostgresDatabase } from '@hickory/sandbox/store/postgres-database';
import { serveFixture } from './fixtures/cli/harness.ts';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';
import { mixedLoad, send } from './showcase-load.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

// A database of its own on the cluster, for a test that needs it fresh.
async function freshDatabase(cluster: Cluster, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

// `hickory serve sandbox/config.ts` with DATABASE_URL set (the child gets this process's environment).
async function serveOn(url: string, extra: readonly string[] = []) {
  const previous = process.env['DATABASE_URL'];
  process.env['DATABASE_URL'] = url;
  try {
    return await serveFixture(['sandbox/config.ts', '--port', '0', ...extra]);
  } finally {
    if (previous === undefined) delete process.env['DATABASE_URL'];
    else process.env['DATABASE_URL'] = previous;
  }
}

describe('the showcase on PostgreSQL', { skip: postgresSkipReason() }, () => {
  let cluster: Cluster;

  before(async () => {
    cluster = await startCluster('showcase');
  });

  after(async () => {
    await cluster?.stop();
  });

  test('DATABASE_URL=postgres://… hickory serve: the same pages, a write kept, a failed write not, with two workers migrating one fresh database at once', { timeout: 60_000 }, async () => {
    const url = await freshDatabase(cluster, 'served');
    const { cli, url: base } = await serveOn(url, ['--workers', '2']);
    try {
      const pages: Array<[string, RegExp]> = [
        ['/', /<h1>Hickory sandbox<\/h1>/],
        ['/books/', /<h1>Books<\/h1>/],
        ['/library/', /<title>Library \(PostgreSQL\) · Hickory<\/title>[\s\S]*<p id="count">5 books in the database\.<\/p>[\s\S]*<li>\d+: Dune Messiah<\/li>/],
        ['/admin/login', /<form method="post" action="\/admin\/login" id="login-form">/],
        ['/catalog/books/', /<h1>Books<\/h1>/],
      ];
      for (const [path, body] of pages) {
        const res = await send(base, { path });
        assert.equal(res.status, 200, path);
        assert.match(res.body, body, path);
      }
      assert.deepEqual(JSON.parse((await send(base, { path: '/authors/', headers: { accept: 'application/json' } })).body), [
        { id: '1', name: 'Frank Herbert' },
        { id: '2', name: 'Jane Austen' },
      ]);
      const added = await send(base, { method: 'POST', path: '/library/', form: 'name=Dune' });
      assert.equal(added.status, 302);
      assert.equal(added.headers['location'], '/library/');
      const failed = await send(base, { method: 'POST', path: '/library/write_then_fail', form: 'name=Ghost' });
      assert.equal(failed.status, 409);
      const created = await send(base, { method: 'POST', path: '/books/', form: 'name=Emma', headers: { accept: 'application/json' } });
      assert.equal(created.status, 200);
      const emma = JSON.parse(created.body) as { id: string; name: string };
      assert.equal(emma.name, 'Emma');
      assert.equal((await send(base, { path: `/books/${emma.id}`, headers: { accept: 'application/json' } })).body, created.body);
      // Ids PostgreSQL would refuse as integers are books that do not exist: 404, never a 500.
      for (const path of ['/books/abc', '/books/99999999999', '/authors/x/books/', '/store/1e3/']) {
        assert.equal((await send(base, { path, headers: { accept: 'application/json' } })).status, 404, path);
      }
      const page = await send(base, { path: '/library/' });
      assert.match(page.body, /<p id="count">7 books in the database\.<\/p>/);
      assert.match(page.body, /<li>\d+: Dune<\/li>\n  <li>\d+: Emma<\/li>/);
      assert.doesNotMatch(page.body, /Ghost/);
    } finally {
      cli.stop();
      await cli.exited(10_000).catch(() => undefined);
    }
    // Both workers migrated the fresh database at once: each migration ran once, the authors once,
    // and the seed books (what a fresh `npm start` shows) once.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      assert.deepEqual((await client.query('SELECT name FROM kysely_migration ORDER BY name')).rows, [{ name: '001-authors-and-books' }, { name: '002-sessions' }, { name: '003-seed-books' }, { name: '004-drop-sessions' }]);
      // The showcase's own sessions table is gone: sessions are sqlStore's (created at ready()).
      assert.deepEqual((await client.query("SELECT to_regclass('sessions') AS old, to_regclass('hickory_sessions') AS new")).rows, [{ old: null, new: 'hickory_sessions' }]);
      assert.deepEqual((await client.query('SELECT count(*)::int AS n FROM authors')).rows, [{ n: 2 }]);
      assert.deepEqual((await client.query("SELECT name, author_id FROM books WHERE name NOT IN ('Dune', 'Emma') ORDER BY id")).rows, SEED_BOOKS);
    } finally {
      await client.end();
    }
  });

  test('the store on PostgreSQL: the same answers as on SQLite, impossible ids not found, a foreign key enforced', async () => {
    const database = await openPostgresDatabase(await freshDatabase(cluster, 'store'));
    const trx = await database.begin();
    try {
      const store = new BookStore(trx);
      assert.deepEqual(await store.create('Dune', '1'), { id: '1', name: 'Dune' });
      assert.deepEqual(await store.create('Emma', '2'), { id: '2', name: 'Emma' });
      assert.deepEqual(await store.list('2'), [{ id: '2', name: 'Emma' }]);
      assert.deepEqual(await store.get('01'), { id: '1', name: 'Dune' });
      for (const id of ['99', '0', 'abc', '2147483648', '1.5']) assert.equal(await store.get(id), undefined, id);
      assert.deepEqual(await store.checkout('1'), { id: '1', name: 'Dune', checked_out: true });
      assert.deepEqual(await store.update('2', 'Persuasion'), { id: '2', name: 'Persuasion' });
      assert.equal(await store.remove('2'), true);
      assert.equal(await store.remove('2'), false);
      assert.deepEqual(await store.authorList(), [{ id: '1', name: 'Frank Herbert' }, { id: '2', name: 'Jane Austen' }]);
      await trx.commit().execute();
      // 23503: foreign_key_violation.
      const orphan = await database.begin();
      await assert.rejects(new BookStore(orphan).create('Orphan', '3'), { code: '23503' });
      await database.release(orphan);
      assert.equal(orphan.isRolledBack, true);
    } finally {
      await database.release(trx);
      await database.close();
    }
  });

  test('a read-only transaction refuses writes; a request that waits past the pool\'s bound is a 503 with Retry-After', async () => {
    const database = await openPostgresDatabase(cluster.url, { max: 1, connectionTimeoutMillis: 150 });
    try {
      const read = await database.beginReadOnly();
      // 25006: read_only_sql_transaction.
      await assert.rejects(read.insertInto('books').values({ name: 'Nope' }).execute(), { code: '25006' });
      const started = performance.now();
      await assert.rejects(database.begin(), (error: unknown) => {
        assert.ok(error instanceof HTTPError);
        assert.equal(error.status, 503);
        assert.deepEqual(error.headers, { 'Retry-After': '1' });
        return true;
      });
      assert.ok(performance.now() - started < 2000);
      await database.release(read);
      await database.release(read);
      // The one connection went back to the pool, once.
      const write = await database.begin();
      assert.equal(write.isCommitted, false);
      await database.release(write);
    } finally {
      await database.close();
    }
  });

  test('an admin session is the database\'s: two instances share it, and a logout on one ends it on both', async () => {
    const url = await freshDatabase(cluster, 'sessions');
    const first = await createSandbox({ logger: false }, { location: url });
    const second = await createSandbox({ logger: false }, { location: url });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const signedIn = await first.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=hickory' });
      assert.equal(signedIn.statusCode, 302);
      const session = String(signedIn.headers['set-cookie']).split(';')[0]!;
      // One row of sqlStore's table, keyed by the SHA-256 of the cookie's id, never the id itself.
      const id = session.slice('hickory_admin='.length, session.indexOf('.'));
      const rows = () => client.query('SELECT id, data FROM hickory_sessions').then((result) => result.rows);
      assert.deepEqual(await rows(), [{ id: createHash('sha256').update(id).digest('base64url'), data: '{"user":"admin"}' }]);
      assert.equal((await second.inject({ url: '/admin/', headers: { cookie: session } })).statusCode, 200);
      const out = await second.inject({ method: 'POST', url: '/admin/logout', headers: { cookie: session } });
      assert.equal(out.statusCode, 302);
      assert.match(String(out.headers['set-cookie']), /^hickory_admin=; Max-Age=0;/);
      assert.deepEqual(await rows(), []);
      for (const app of [first, second]) assert.equal((await app.inject({ url: '/admin/', headers: { cookie: session } })).statusCode, 401);
    } finally {
      await client.end();
      await first.close();
      await second.close();
    }
  });

  describe('under concurrency', () => {
    let app: Kernel;
    let base = '';

    before(async () => {
      app = await createSandbox({ logger: false }, { location: await freshDatabase(cluster, 'concurrency') });
      base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
    });

    after(async () => {
      await app?.close();
    });

    test('200 mixed requests at once: all 2xx/3xx, and the database holds exactly the writes answered so', { timeout: 60_000 }, async () => {
      const { statuses } = await mixedLoad(base, 200, 'postgres');
      assert.equal((statuses[200] ?? 0) + (statuses[302] ?? 0), 200);
    });

    test('writes that fail after inserting keep nothing, while the writes around them are kept', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          send(base, i % 2 === 0 ? { method: 'POST', path: '/library/write_then_fail', form: `name=Ghost-${i}` } : { method: 'POST', path: '/library/', form: `name=Kept-${i}` }),
        ),
      );
      answers.forEach((answer, i) => assert.equal(answer.status, i % 2 === 0 ? 409 : 302, `request ${i}`));
      const books = JSON.parse((await send(base, { path: '/books/', headers: { accept: 'application/json' } })).body) as Array<{ name: string }>;
      assert.deepEqual(books.filter((book) => book.name.startsWith('Ghost-')), []);
      assert.equal(books.filter((book) => book.name.startsWith('Kept-')).length, 20);
    });
  });
});
