// The showcase on one SQLite file under `hickory serve --workers 2`, while another process holds the
// file's write lock (this test's own connection, as a third worker would): a write waits for it
// without blocking its worker's event loop (the other routes answer meanwhile), is served once the
// lock is free, and past its bound (HICKORY_SANDBOX_DB_WAIT_MS) is answered 503 with Retry-After —
// never a 500; 40 writes at once across the two workers are all 302 or 503, and exactly the 302s
// are stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { serveShowcaseWorkers, type ShowcaseWorkers } from './fixtures/showcase-sqlite-workers.ts';
import { send, type Answer } from './showcase-load.ts';

const WAIT_MS = 1500;

describe('the showcase on a SQLite file under hickory serve --workers 2, with the write lock held by another process', () => {
  let showcase: ShowcaseWorkers | undefined;
  let file = '';
  let base = '';
  let holder: Database.Database | undefined;

  before(async () => {
    showcase = await serveShowcaseWorkers('hickory-showcase-sqlite-workers-', { HICKORY_SANDBOX_DB_WAIT_MS: String(WAIT_MS) });
    ({ file, base } = showcase);
    // Both workers have opened (and migrated) the file once each answered.
    for (let i = 0; i < 4; i++) assert.equal((await send(base, { path: '/library/' }, 10_000)).status, 200);
    holder = new Database(file, { timeout: 0 });
  });

  after(async () => {
    holder?.close();
    await showcase?.stop();
  });

  // Two writes (one per worker: the primary hands connections out in turn), then pages on fresh
  // connections while the lock is held for `holdMs`: what each answered, and when.
  async function writesWhileLocked(tag: string, holdMs: number): Promise<{ writes: Answer[]; pages: Answer[] }> {
    holder!.exec('BEGIN IMMEDIATE');
    let held = true;
    try {
      const writes = Promise.all([1, 2].map((i) => send(base, { method: 'POST', path: '/library/', form: `name=${tag}-${i}` }, 10_000)));
      await sleep(100);
      const pages: Answer[] = [];
      for (let i = 0; i < 6; i++) pages.push(await send(base, { path: i % 2 ? '/hours' : '/' }, 10_000));
      const left = holdMs - 100 - pages.reduce((sum, page) => sum + page.ms, 0);
      if (left > 0) await sleep(left);
      holder!.exec('ROLLBACK');
      held = false;
      return { writes: await writes, pages };
    } finally {
      if (held) holder!.exec('ROLLBACK');
    }
  }

  function stored(prefix: string): string[] {
    return (holder!.prepare('SELECT name FROM books WHERE name LIKE ? ORDER BY name').all(`${prefix}%`) as Array<{ name: string }>).map((row) => row.name);
  }

  test('a write waits for the lock without blocking its worker: pages answer meanwhile, the write is kept once the lock is free', { timeout: 30_000 }, async () => {
    const { writes, pages } = await writesWhileLocked('Waited', 700);
    for (const page of pages) {
      assert.equal(page.status, 200);
      // Both workers serve while their write waits (SQLite's own busy wait blocked a worker for 2 s).
      assert.ok(page.ms < 1_200, `a page took ${Math.round(page.ms)} ms while a write waited`);
    }
    assert.deepEqual(writes.map((write) => write.status), [302, 302]);
    // They waited for the lock: answered only once it was free.
    for (const write of writes) assert.ok(write.ms >= 600, `a write was answered after ${Math.round(write.ms)} ms, while the lock was held`);
    assert.deepEqual(stored('Waited-'), ['Waited-1', 'Waited-2']);
  });

  test('past its bound a write is answered 503 with Retry-After (never 500) and keeps nothing; pages answer all along', { timeout: 30_000 }, async () => {
    const { writes, pages } = await writesWhileLocked('Refused', WAIT_MS + 1000);
    for (const page of pages) {
      assert.equal(page.status, 200);
      assert.ok(page.ms < 1_200, `a page took ${Math.round(page.ms)} ms while a write waited`);
    }
    for (const write of writes) {
      assert.equal(write.status, 503);
      assert.equal(write.headers['retry-after'], '1');
      assert.ok(write.ms >= WAIT_MS - 100 && write.ms < WAIT_MS + 900, `refused after ${Math.round(write.ms)} ms (the bound is ${WAIT_MS} ms)`);
    }
    assert.deepEqual(stored('Refused-'), []);
    // The lock is free again: the next write is served at once.
    const next = await send(base, { method: 'POST', path: '/library/', form: 'name=Refused-after' });
    assert.equal(next.status, 302);
    assert.deepEqual(stored('Refused-'), ['Refused-after']);
  });

  test('40 writes at once across both workers, the lock held at first: each 302 or 503 (no 500), exactly the 302s stored', { timeout: 60_000 }, async () => {
    holder!.exec('BEGIN IMMEDIATE');
    const writes = Array.from({ length: 40 }, (_, i) => send(base, { method: 'POST', path: '/library/', form: `name=Crowd-${String(i).padStart(2, '0')}` }, 20_000));
    await sleep(300);
    holder!.exec('ROLLBACK');
    const answers = await Promise.all(writes);
    const statuses = answers.map((answer) => answer.status);
    assert.deepEqual(statuses.filter((status) => status !== 302 && status !== 503), [], `statuses: ${statuses.join(' ')}`);
    for (const answer of answers.filter((a) => a.status === 503)) assert.equal(answer.headers['retry-after'], '1');
    const kept = answers.flatMap((answer, i) => (answer.status === 302 ? [`Crowd-${String(i).padStart(2, '0')}`] : []));
    assert.deepEqual(stored('Crowd-'), kept);
    // On an idle machine all 40 are served; at least most must be, whatever the load.
    assert.ok(kept.length >= 20, `only ${kept.length} of 40 writes were kept`);
  });
});
