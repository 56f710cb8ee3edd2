// docs/hooks.md's Kysely + SQLite recipe (SqliteRequestDialect) under `hickory serve --workers 2`:
// 40 read-then-write requests at once, across two processes sharing the file. Kysely's own SQLite
// dialect begins with a deferred BEGIN, and some of them answered 500 `database is locked`; here
// every one is 200 or 503 with Retry-After, the rows are exactly the 200s, and each saw the rows
// before it (the write lock is taken at BEGIN: the transactions ran one after another).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { REPO, serveFixture } from './fixtures/cli/harness.ts';
import { send } from './showcase-load.ts';

test('the Kysely + SQLite recipe under --workers 2: 40 read-then-write requests at once, each 200 or 503 (no 500), exactly the 200s stored, in turn', { timeout: 90_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-sqlite-recipe-'));
  const file = join(dir, 'books.sqlite');
  const { cli, url } = await serveFixture(['test/fixtures/sqlite-recipe/config.ts', '--port', '0', '--workers', '2'], REPO, undefined, { HICKORY_RECIPE_DB: file, HICKORY_RECIPE_WAIT_MS: '5000' });
  try {
    const pids = new Set<string>();
    for (let i = 0; i < 20 && pids.size < 2; i++) pids.add((await send(url, { path: '/pid' }, 10_000)).body);
    assert.equal(pids.size, 2, 'both workers answer');
    const names = Array.from({ length: 40 }, (_, i) => `Book-${String(i).padStart(2, '0')}`);
    const answers = await Promise.all(
      names.map((name) => send(url, { method: 'POST', path: '/add', form: `name=${name}`, headers: { accept: 'application/json' } }, 30_000)),
    );
    const statuses = answers.map((answer) => answer.status);
    assert.deepEqual(statuses.filter((status) => status !== 200 && status !== 503), [], `statuses: ${statuses.join(' ')}`);
    for (const answer of answers.filter((a) => a.status === 503)) assert.equal(answer.headers['retry-after'], '1');
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT name, shelf_size FROM books ORDER BY shelf_size').all() as Array<{ name: string; shelf_size: number }>;
      assert.deepEqual(rows.map((row) => row.name).sort(), names.filter((_, i) => statuses[i] === 200));
      // Each read the count of the rows committed before it: 0, 1, 2, … with no two alike.
      assert.deepEqual(rows.map((row) => row.shelf_size), rows.map((_, i) => i));
    } finally {
      db.close();
    }
    assert.ok(rows200(statuses) >= 30, `only ${rows200(statuses)} of 40 were served`);
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited(20_000).catch(() => cli.stop());
    await rm(dir, { recursive: true, force: true });
  }
});

function rows200(statuses: number[]): number {
  return statuses.filter((status) => status === 200).length;
}
