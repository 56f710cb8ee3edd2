// The showcase's live page (/live/) over real sockets: a book is announced on /live/events once its
// transaction has committed (the book is readable when its event arrives), never when it is rolled
// back; every way of adding a book announces it; Last-Event-ID resumes; and two apps on one SQLite
// file each hear the other's books, once — and so do the real workers of `hickory serve --workers 2`.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kernel } from '@hickory/core';
import { createSandbox } from '@hickory/sandbox/app';
import { REPO, serveFixture, type Running } from './fixtures/cli/harness.ts';
import { EventReader, type ReadEvent } from './fixtures/event-reader.ts';

const json = { 'content-type': 'application/json', accept: 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function listen(app: Kernel): Promise<string> {
  return (await app.listen({ port: 0, host: '127.0.0.1' })).url.replace(/\/$/, '');
}

// A stream of /live/events, read as it comes; `abort` ends it from the client's side.
async function subscribe(base: string, query = '', headers: Record<string, string> = {}): Promise<{ events: EventReader; status: number; type: string | null; abort: () => void }> {
  const controller = new AbortController();
  const res = await fetch(`${base}/live/events${query}`, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  return { events: new EventReader(res.body!), status: res.status, type: res.headers.get('content-type'), abort: () => controller.abort() };
}

function bookEvent(id: string, name: string): ReadEvent {
  return { event: 'book', id, data: JSON.stringify({ id, name }) };
}

async function post(base: string, path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body, redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

describe('the live page over a real socket', () => {
  let app: Kernel;
  let base: string;
  const streams: Array<{ abort: () => void }> = [];

  before(async () => {
    app = await createSandbox({ logger: false });
    base = await listen(app);
  });

  after(async () => {
    for (const stream of streams) stream.abort();
    await app?.close();
  });

  test('a book added through the JSON API arrives after its commit (readable at once); a rolled-back one never arrives', async () => {
    // after=0: whatever commits before the subscription is in force comes from the catch-up read.
    const stream = await subscribe(base, '?after=0');
    streams.push(stream);
    assert.equal(stream.status, 200);
    assert.equal(stream.type, 'text/event-stream; charset=utf-8');

    const ghost = await post(base, '/library/write_then_fail', 'name=Ghost', form);
    assert.equal(ghost.status, 409);
    const added = await post(base, '/books/', JSON.stringify({ name: 'Dune' }), json);
    assert.equal(added.status, 200);
    const book = JSON.parse(added.body) as { id: string; name: string };

    const first = await stream.events.next(5000);
    assert.deepEqual(first, bookEvent(book.id, 'Dune'), 'the first event is the committed book, not the rolled-back one');
    // Announced after the commit: another request reads it the moment its event is there.
    const read = await fetch(`${base}/books/${book.id}.json`);
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), { id: book.id, name: 'Dune' });

    // A rollback on its own: nothing at all comes.
    assert.equal((await post(base, '/library/write_then_fail', 'name=Ghost 2', form)).status, 409);
    assert.deepEqual(await stream.events.during(400), [], 'no event for a rolled-back book, and none twice');
  });

  test('every way of adding a book announces it: the forms of /books/ and /library/, the generic API, an author\'s books', async () => {
    const stream = await subscribe(base);
    streams.push(stream);
    // The stream is in force once its head is out and a first book has come through it.
    const probe = JSON.parse((await post(base, '/books/', JSON.stringify({ name: 'Probe' }), json)).body) as { id: string };
    assert.deepEqual(await stream.events.next(5000), bookEvent(probe.id, 'Probe'));

    assert.equal((await post(base, '/books/', 'name=From+the+form', { ...form, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' })).status, 303);
    assert.equal((await post(base, '/library/', 'name=From+the+library', form)).status, 302);
    assert.equal((await post(base, '/store/', JSON.stringify({ name: 'From the store' }), json)).status, 200);
    assert.equal((await post(base, '/authors/1/books/', JSON.stringify({ name: 'From an author' }), json)).status, 200);
    const names: string[] = [];
    for (let i = 0; i < 4; i++) names.push((JSON.parse((await stream.events.next(5000)).data) as { name: string }).name);
    assert.deepEqual(names, ['From the form', 'From the library', 'From the store', 'From an author']);
    // A rename or a delete is no new book.
    assert.equal((await fetch(`${base}/books/${probe.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: 'Renamed' }) })).status, 200);
    assert.equal((await fetch(`${base}/books/${probe.id}`, { method: 'DELETE', headers: json })).status, 200);
    assert.deepEqual(await stream.events.during(300), []);
  });

  test('a reconnecting browser (Last-Event-ID) gets the books it missed, then the new ones; Last-Event-ID wins over ?after', async () => {
    const ids: string[] = [];
    for (const name of ['Missed 1', 'Missed 2', 'Missed 3']) ids.push((JSON.parse((await post(base, '/books/', JSON.stringify({ name }), json)).body) as { id: string }).id);
    const stream = await subscribe(base, '?after=0', { 'last-event-id': ids[0]! });
    streams.push(stream);
    assert.deepEqual(await stream.events.next(5000), bookEvent(ids[1]!, 'Missed 2'));
    assert.deepEqual(await stream.events.next(5000), bookEvent(ids[2]!, 'Missed 3'));
    const fresh = JSON.parse((await post(base, '/books/', JSON.stringify({ name: 'Fresh' }), json)).body) as { id: string };
    assert.deepEqual(await stream.events.next(5000), bookEvent(fresh.id, 'Fresh'));
  });

  test('an `after` or Last-Event-ID that is no book id is a 400 naming it; a POST is a 405', async () => {
    for (const [query, headers] of [['?after=abc', {}], ['', { 'last-event-id': '-1' }], ['?after=99999999999', {}]] as const) {
      const res = await fetch(`${base}/live/events${query}`, { headers: { accept: 'text/event-stream', ...headers } });
      assert.equal(res.status, 400, query);
      assert.match(await res.text(), /must be a book id/);
    }
    // The page and its stream are read with GET: a POST is refused.
    assert.equal((await fetch(`${base}/live/events`, { method: 'POST', headers: { accept: 'text/event-stream' } })).status, 405);
  });

  test('the page lists the books, starts its stream after the last one, and loads its script from a file (the CSP allows no inline script)', async () => {
    const res = await fetch(`${base}/live/`);
    assert.equal(res.status, 200);
    const html = await res.text();
    const ids = [...html.matchAll(/<li id="book-(\d+)">/g)].map((match) => Number(match[1]));
    assert.ok(ids.length >= 5, html);
    assert.ok(html.includes(`<ul id="live-books" data-after="${Math.max(...ids)}">`), html);
    assert.ok(html.includes('<script src="/live.js" defer></script>'));
    assert.doesNotMatch(html, /<script>/);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    const script = await fetch(`${base}/live.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    // /live redirects to the page, which the navigation links.
    assert.equal((await fetch(`${base}/live`, { redirect: 'manual' })).status, 302);
    assert.match(await (await fetch(`${base}/`)).text(), /<a href="\/live\/">Live<\/a>/);
  });
});

describe('two apps on one SQLite file (the workers of `hickory serve --workers 2`)', () => {
  let dir: string;
  const apps: Kernel[] = [];
  const bases: string[] = [];
  const streams: Array<{ abort: () => void }> = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hickory-live-'));
    const location = join(dir, 'books.sqlite');
    // One after the other: the first migrates the file.
    for (let i = 0; i < 2; i++) apps.push(await createSandbox({ logger: false }, { location, events: { pollMs: 100 } }));
    for (const app of apps) bases.push(await listen(app));
  });

  after(async () => {
    for (const stream of streams) stream.abort();
    for (const app of apps) await app.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('each hears the books the other added (polling the file), and its own once', async () => {
    const [a, b] = bases as [string, string];
    const onA = await subscribe(a, '?after=0');
    const onB = await subscribe(b, '?after=0');
    streams.push(onA, onB);
    const dune = JSON.parse((await post(a, '/books/', JSON.stringify({ name: 'Dune' }), json)).body) as { id: string };
    assert.deepEqual(await onA.events.next(5000), bookEvent(dune.id, 'Dune'));
    assert.deepEqual(await onB.events.next(5000), bookEvent(dune.id, 'Dune'));
    const emma = JSON.parse((await post(b, '/books/', JSON.stringify({ name: 'Emma' }), json)).body) as { id: string };
    assert.deepEqual(await onB.events.next(5000), bookEvent(emma.id, 'Emma'));
    assert.deepEqual(await onA.events.next(5000), bookEvent(emma.id, 'Emma'));
    // A rolled-back write on one is never seen by the other either.
    assert.equal((await post(b, '/library/write_then_fail', 'name=Ghost', form)).status, 409);
    assert.deepEqual(await onA.events.during(500), [], 'nothing twice on A, no ghost');
    assert.deepEqual(await onB.events.during(0), [], 'nothing twice on B, no ghost');
  });

  test('closing an app ends its open streams at once (the broadcast closed, no polling left)', async () => {
    const stream = await subscribe(bases[1]!);
    streams.push(stream);
    const started = Date.now();
    await apps[1]!.close();
    await stream.events.closed();
    assert.ok(Date.now() - started < 2000, `closed in ${Date.now() - started} ms`);
  });
});

describe('hickory serve --workers 2 on one SQLite file', () => {
  let dir: string;
  let cli: Running | undefined;
  let base: string;
  const streams: Array<{ abort: () => void }> = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hickory-live-workers-'));
    const served = await serveFixture(['sandbox/config.ts', '--host', '127.0.0.1', '--port', '0', '--workers', '2'], REPO, undefined, {
      HICKORY_SANDBOX_DB: join(dir, 'books.sqlite'),
      DATABASE_URL: '',
    });
    cli = served.cli;
    base = served.url.replace(/\/$/, '');
    // Both workers have opened (and migrated) the file once each answered.
    for (let i = 0; i < 4; i++) assert.equal((await fetch(`${base}/library/`)).status, 200);
  });

  after(async () => {
    for (const stream of streams) stream.abort();
    if (cli !== undefined) {
      cli.child.kill('SIGTERM');
      await cli.exited(20_000).catch(() => cli!.stop());
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('four streams (the primary hands connections to the workers in turn) each get every book, once', { timeout: 60_000 }, async () => {
    const last = (await (await fetch(`${base}/books/`, { headers: { accept: 'application/json' } })).json()) as Array<{ id: string }>;
    const after = Math.max(0, ...last.map((book) => Number(book.id)));
    const opened = [];
    for (let i = 0; i < 4; i++) opened.push(await subscribe(base, `?after=${after}`));
    streams.push(...opened);
    const added: ReadEvent[] = [];
    // Four writes: they too go to the workers in turn.
    for (let i = 0; i < 4; i++) {
      const answer = await post(base, '/books/', JSON.stringify({ name: `Book ${i}` }), json);
      assert.equal(answer.status, 200);
      const book = JSON.parse(answer.body) as { id: string; name: string };
      added.push(bookEvent(book.id, book.name));
    }
    for (const [i, stream] of opened.entries()) {
      const got: ReadEvent[] = [];
      for (let n = 0; n < 4; n++) got.push(await stream.events.next(5000));
      // A book of the stream's own worker comes at once, the other's within a poll (1 s): sorted by id.
      got.sort((x, y) => Number(x.id) - Number(y.id));
      assert.deepEqual(got, added, `stream ${i}`);
    }
    assert.deepEqual(await opened[0]!.events.during(1500), [], 'nothing twice');
  });
});
