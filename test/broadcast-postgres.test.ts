// Live fan-out across instances (issue #38, item 3): two instances of an app on one PostgreSQL
// database share a broadcast by LISTEN/NOTIFY — a book added on one appears on the event streams
// open on both — and a lost listening connection is made again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { postgresBroadcast, type Broadcast } from '@hickory/broadcast';
import { createKernel, eventStream, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
  }
}

/** One instance: a pool, a broadcast on it, and an app whose /live streams the channel and POST /add publishes. */
function instance(url: string): { pool: pg.Pool; broadcast: Broadcast; app: Kernel } {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const broadcast = postgresBroadcast(pool, { reconnectMs: 50, onError: () => {} });
  class Root {
    @expose({ content_type: 'text/event-stream' }) live() {
      return eventStream(async function* (signal) {
        for await (const book of broadcast.messages('books', { signal })) yield { event: 'book', data: book };
      }, { heartbeat: 0 });
    }
    @expose('json') async add(name: string) {
      await broadcast.publish('books', { name });
      return { added: name };
    }
  }
  return { pool, broadcast, app: createKernel({ root: new Root(), logger: false }).use(dispatchPlugin) };
}

async function readEvents(url: string, into: string[], signal: AbortSignal): Promise<void> {
  const page = await fetch(`${url}/live`, { headers: { accept: 'text/event-stream' }, signal });
  const reader = page.body!.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      into.push(decoder.decode(value));
    }
  } catch {
    // Aborted by the test.
  }
}

describe('a broadcast across instances on PostgreSQL', { skip: postgresSkipReason() }, () => {
  let cluster: Cluster;
  before(async () => {
    cluster = await startCluster('broadcast');
  });
  after(async () => {
    await cluster?.stop();
  });

  test('a book added on one instance reaches the event streams open on both', { timeout: 60_000 }, async () => {
    const one = instance(cluster.url);
    const two = instance(cluster.url);
    const stop = new AbortController();
    try {
      const urls = [(await one.app.listen({ port: 0, host: '127.0.0.1' })).url, (await two.app.listen({ port: 0, host: '127.0.0.1' })).url];
      const seen: string[][] = [[], []];
      const reading = urls.map((url, i) => readEvents(url, seen[i]!, stop.signal));
      await sleep(200);
      await Promise.all([one.broadcast.ready(), two.broadcast.ready()]);
      const added = await fetch(`${urls[0]}/add?name=Dune`, { method: 'POST' });
      assert.equal(added.status, 200);
      await until(() => seen.every((events) => events.join('').includes('data: {"name":"Dune"}')), 5_000, 'the event on both instances');
      assert.deepEqual(seen.map((events) => events.join('')), ['event: book\ndata: {"name":"Dune"}\n\n', 'event: book\ndata: {"name":"Dune"}\n\n']);
      stop.abort();
      await Promise.all(reading);
    } finally {
      stop.abort();
      for (const { app, broadcast, pool } of [one, two]) {
        await app.close();
        await broadcast.close();
        await pool.end();
      }
    }
  });

  test('a lost listening connection is made again; a message too large for NOTIFY is refused with its size', { timeout: 60_000 }, async () => {
    const pool = new pg.Pool({ connectionString: cluster.url, max: 3 });
    const errors: unknown[] = [];
    const broadcast = postgresBroadcast(pool, { reconnectMs: 50, onError: (error) => errors.push(error) });
    const got: unknown[] = [];
    try {
      broadcast.subscribe('orders', (order) => got.push(order));
      await broadcast.ready();
      await broadcast.publish('orders', { n: 1 });
      await until(() => got.length === 1, 5_000, 'the first message');
      // The database drops the listening connection (a restart, a failover, an idle timeout).
      await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()");
      await until(() => errors.length > 0, 5_000, 'the loss reported');
      // Published until the new connection listens: the first ones may be lost, the later ones arrive.
      for (let n = 2; got.length < 2 && n < 200; n++) {
        await broadcast.publish('orders', { n });
        await sleep(50);
      }
      assert.ok(got.length >= 2, 'messages arrive again after the connection was made again');
      await assert.rejects(broadcast.publish('orders', { text: 'x'.repeat(9_000) }), (error: Error & { code?: string }) => error.code === 'HICKORY_ERR_BROADCAST_MESSAGE' && /9\d{3} bytes of JSON/.test(error.message));
    } finally {
      await broadcast.close();
      await pool.end();
    }
  });
});
