import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Library } from './library.ts';
import { showcaseSessionStore } from './showcase-sessions.ts';
import { inFolder } from './fixtures/in-folder.ts';

test('on a SQLite file: saved through the writer, read on a reader even while a write transaction holds the writer', async () => {
  await inFolder('hickory-showcase-sessions-store-', async (file) => {
    const library = new Library(file, { writeWaitMs: 300 });
    const store = showcaseSessionStore(library);
    try {
      await store.init!();
      const later = Date.now() + 60_000;
      await store.set('a', '{"user":"admin"}', later);
      const database = await library.open();
      const holding = await database.begin();
      try {
        // The writer is taken: a read answers at once all the same, and a write waits its turn (503 past its bound).
        const started = Date.now();
        assert.deepEqual(await store.get('a'), { data: '{"user":"admin"}', expires: later });
        assert.ok(Date.now() - started < 200, `the read took ${Date.now() - started} ms`);
        await assert.rejects(Promise.resolve(store.destroy('a')), { status: 503 });
      } finally {
        await database.release(holding);
      }
      await store.destroy('a');
      assert.equal(await store.get('a'), undefined);
    } finally {
      await library.close();
    }
  });
});

test('expired sessions are never read and are swept; a closed library is not opened again by a sweep', async () => {
  const library = new Library(':memory:');
  const store = showcaseSessionStore(library);
  assert.equal(store.sweepInterval, 60_000);
  try {
    await store.init!();
    const now = Date.now();
    await store.set('old', '{}', now - 1);
    await store.set('live', '{"user":"admin"}', now + 60_000);
    assert.equal(await store.get('old'), undefined);
    assert.equal(await store.sweep(now), 1);
    assert.equal(await store.sweep(now), 0);
    assert.equal((await store.get('live'))?.data, '{"user":"admin"}');
  } finally {
    await library.close();
  }
  assert.equal(await store.sweep(Date.now()), 0);
  assert.equal(library.ifOpen(), undefined);
});
