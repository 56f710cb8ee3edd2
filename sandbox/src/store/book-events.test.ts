import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Library } from './library.ts';

async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(10);
  }
}

test('on a SQLite file a book is announced once: by a poll (another process\'s), by the library after its commit, or by a poll that found it first', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-book-events-'));
  const file = join(dir, 'books.sqlite');
  const library = new Library(file, { events: { pollMs: 50 } });
  // Another worker on the same file: its writes are announced to nobody here but by the polls.
  const other = new Library(file);
  const insert = async (name: string): Promise<string> => {
    const db = await other.open();
    const trx = await db.begin();
    const row = await trx.insertInto('books').values({ name }).returning('id').executeTakeFirstOrThrow();
    await trx.commit().execute();
    await db.release(trx);
    return String(row.id);
  };
  const controller = new AbortController();
  const got: string[] = [];
  try {
    await library.open();
    const reading = (async () => {
      for await (const event of library.events.stream(0, controller.signal)) got.push(String(event.id));
    })();
    const fromOther = await insert('From another worker');
    await until(() => got.includes(fromOther), 'the other worker\'s book');

    // Committed here and announced at once: the next poll finds it in the file and skips it.
    const announced = await insert('Announced first');
    await library.events.added([{ id: announced, name: 'Announced first' }]);
    // Found by a poll before this process announced it (its commit was just before): not twice.
    const polled = await insert('Polled first');
    await until(() => got.includes(polled), 'the polled book');
    await library.events.added([{ id: polled, name: 'Polled first' }]);

    await sleep(300); // several polls
    assert.deepEqual(got, [fromOther, announced, polled]);
    controller.abort();
    await reading;
  } finally {
    controller.abort();
    await library.close();
    await other.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('an in-memory library is never polled, and a closed one starts afresh', async () => {
  const library = new Library(':memory:');
  const controller = new AbortController();
  const got: unknown[] = [];
  await library.open();
  const reading = (async () => {
    for await (const event of library.events.stream(undefined, controller.signal)) got.push(event.data);
  })();
  await sleep(20);
  await library.events.added([{ id: '1', name: 'Dune' }]);
  await until(() => got.length === 1, 'the announced book');
  assert.deepEqual(got, [{ id: '1', name: 'Dune' }]);
  controller.abort();
  await reading;
  await library.close();
  // The broadcast is made again on next use.
  await library.events.added([{ id: '2', name: 'Emma' }]);
  await library.close();
});
