import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKernel, eventStream } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { memoryBroadcast } from './index.ts';

test('subscribers of a channel get each message as a copy; others and unsubscribed ones do not; a throwing listener is reported', async () => {
  const failures: unknown[] = [];
  const broadcast = memoryBroadcast({ onError: (error) => failures.push(error) });
  const books: unknown[] = [];
  const authors: unknown[] = [];
  const off = broadcast.subscribe('books', (book) => books.push(book));
  broadcast.subscribe('authors', (author) => authors.push(author));
  broadcast.subscribe('books', () => {
    throw new Error('a listener broke');
  });
  const sent = { id: 1, name: 'Dune' };
  await broadcast.publish('books', sent);
  await sleep(0);
  assert.deepEqual(books, [{ id: 1, name: 'Dune' }]);
  assert.notEqual(books[0], sent, 'a copy, not the publisher\'s object');
  assert.deepEqual(authors, []);
  assert.equal((failures[0] as Error).message, 'a listener broke');
  off();
  await broadcast.publish('books', { id: 2 });
  await sleep(0);
  assert.equal(books.length, 1);
  await broadcast.close();
  await assert.rejects(broadcast.publish('books', {}), { code: 'HICKORY_ERR_BROADCAST_CLOSED' });
});

test('channel names are identifiers; a message must be JSON', async () => {
  const broadcast = memoryBroadcast();
  for (const bad of ['Books', 'books;drop', '', 'x'.repeat(64), 7]) {
    assert.throws(() => broadcast.subscribe(bad as string, () => {}), { code: 'HICKORY_ERR_BROADCAST_CHANNEL' });
  }
  await assert.rejects(broadcast.publish('books', undefined), { code: 'HICKORY_ERR_BROADCAST_MESSAGE' });
  await broadcast.close();
});

test('messages(): a slow reader keeps only the latest `buffer` messages; it ends when its signal aborts', async () => {
  const broadcast = memoryBroadcast();
  const stop = new AbortController();
  const messages = broadcast.messages('books', { signal: stop.signal, buffer: 3 });
  for (let id = 1; id <= 10; id++) await broadcast.publish('books', { id });
  await sleep(0);
  assert.deepEqual(await messages.next(), { done: false, value: { id: 8 } });
  assert.deepEqual(await messages.next(), { done: false, value: { id: 9 } });
  assert.deepEqual(await messages.next(), { done: false, value: { id: 10 } });
  const waiting = messages.next();
  stop.abort();
  assert.deepEqual(await waiting, { done: true, value: undefined });
  await broadcast.close();
});

test('an event stream fed by a channel: each open page gets the books published after it opened', async () => {
  const broadcast = memoryBroadcast();
  class Root {
    @expose({ content_type: 'text/event-stream' }) live() {
      return eventStream(async function* (signal) {
        for await (const book of broadcast.messages('books', { signal })) yield { event: 'book', data: book };
      }, { heartbeat: 0 });
    }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const pages = await Promise.all([1, 2].map(() => fetch(`${url}/live`, { headers: { accept: 'text/event-stream' } })));
    await sleep(50);
    await broadcast.publish('books', { name: 'Dune' });
    for (const page of pages) {
      const reader = page.body!.getReader();
      const { value } = await reader.read();
      assert.equal(new TextDecoder().decode(value), 'event: book\ndata: {"name":"Dune"}\n\n');
      await reader.cancel();
    }
  } finally {
    await app.close();
    await broadcast.close();
  }
});
