import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin } from '@hickory/dispatch';
import { GenericItemsController } from './books.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

test('/items/ keeps at most maxItems items and maxBytes bytes, dropping the oldest: many large posts leave it flat', async () => {
  const items = new GenericItemsController({ maxItems: 20, maxBytes: 100_000 });
  const app = createKernel({ root: items, logger: false }).use(dispatchPlugin);
  try {
    const uuids: string[] = [];
    let largest = { items: 0, bytes: 0 };
    // 300 posts of 12 kB (3.6 MB in all): never more than 100 kB kept.
    for (let i = 0; i < 300; i++) {
      const res = await app.inject({ method: 'POST', url: '/', headers: form, payload: `n=${i}&text=${'x'.repeat(12_000)}` });
      assert.equal(res.statusCode, 200);
      uuids.push(res.json().uuid);
      const now = items.retained();
      largest = { items: Math.max(largest.items, now.items), bytes: Math.max(largest.bytes, now.bytes) };
    }
    // Each item is ~12 kB of JSON, so the byte bound (8 of them) is reached before the count.
    assert.deepEqual(largest.items, 8);
    assert.ok(largest.bytes <= 100_000, `${largest.bytes} bytes kept`);
    const kept = (await app.inject('/')).json().items as Array<{ uuid: string; fields: { n: string } }>;
    assert.deepEqual(kept.map((item) => item.uuid), uuids.slice(-8));
    assert.deepEqual(kept.map((item) => item.fields.n), ['292', '293', '294', '295', '296', '297', '298', '299']);
    assert.equal(items.retained().bytes, kept.reduce((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0));

    // Small items: the count bound.
    for (let i = 0; i < 50; i++) await app.inject({ method: 'POST', url: '/', headers: form, payload: `small=${i}` });
    assert.equal(items.retained().items, 20);
    assert.deepEqual(((await app.inject('/')).json().items as Array<{ fields: { small: string } }>).map((item) => item.fields.small), Array.from({ length: 20 }, (_, i) => String(30 + i)));

    // Larger than everything kept together: refused, and nothing dropped for it.
    const before = items.retained();
    const huge = await app.inject({ method: 'POST', url: '/', headers: { ...form, accept: 'application/json' }, payload: `text=${'y'.repeat(120_000)}` });
    assert.equal(huge.statusCode, 413);
    assert.match(huge.json().description, /^An item of \d+ bytes is more than this example keeps \(100000 bytes in all\)\.$/);
    assert.deepEqual(items.retained(), before);
  } finally {
    await app.close();
  }
});

test('the showcase\'s bounds by default: 100 items, 2 MiB', async () => {
  const items = new GenericItemsController();
  const app = createKernel({ root: items, logger: false }).use(dispatchPlugin);
  try {
    for (let i = 0; i < 120; i++) await app.inject({ method: 'POST', url: '/', headers: form, payload: `n=${i}` });
    assert.equal(items.retained().items, 100);
    // 60 posts of 100 kB (6 MB): at most 2 MiB kept.
    for (let i = 0; i < 60; i++) assert.equal((await app.inject({ method: 'POST', url: '/', headers: form, payload: `text=${'z'.repeat(100_000)}` })).statusCode, 200);
    const { items: count, bytes } = items.retained();
    assert.ok(bytes <= 2 * 1024 * 1024 && bytes > 2 * 1024 * 1024 - 100_100, `${bytes} bytes kept`);
    assert.equal(count, 20);
  } finally {
    await app.close();
  }
});
