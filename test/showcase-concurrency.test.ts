// The showcase on SQLite under concurrency, over real sockets on 127.0.0.1: a slow client holds
// nothing, 200 mixed requests at once are all answered and stored exactly as answered, a write
// that fails keeps nothing, and clients that leave mid-request leave the server serving.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kernel } from '@hickory/core';
import { createSandbox } from '@hickory/sandbox/app';
import { mixedLoad, send, slowPost } from './showcase-load.ts';

// A file database, as `npm start` uses: a writer connection and read-only ones in WAL mode.
describe('the showcase on a SQLite file, under concurrency', () => {
  let dir = '';
  let app: Kernel;
  let base = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hickory-showcase-concurrency-'));
    app = await createSandbox({ logger: false }, { location: join(dir, 'books.sqlite') });
    base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
  });

  after(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('a POST whose body arrives slowly holds nothing: /, /books/ and /admin/login answer meanwhile', async () => {
    const slow = await slowPost(base, '/library/', 'name=Slowly', 5);
    const pages = ['/', '/books/', '/admin/login'];
    const answers = await Promise.all(pages.map((path) => send(base, { path }, 5000)));
    const pagesDone = performance.now();
    await sleep(Math.max(0, 300 - (pagesDone - slow.started)));
    slow.finish();
    const posted = await slow.answer;
    answers.forEach((answer, i) => assert.equal(answer.status, 200, pages[i]));
    // Every page was answered before the slow body was complete, let alone answered.
    assert.ok(pagesDone - slow.started < 300, `the pages took ${Math.round(pagesDone - slow.started)} ms`);
    assert.ok(pagesDone < slow.started + posted.ms);
    assert.match(posted.text, /^HTTP\/1\.1 302 /);
    assert.match((await send(base, { path: '/library/' })).body, /<li>\d+: Slowly<\/li>/);
  });

  test('200 mixed requests at once: all 2xx/3xx, and the database holds exactly the writes answered so', { timeout: 60_000 }, async () => {
    const { statuses, slowestMs } = await mixedLoad(base, 200, 'sqlite');
    assert.equal((statuses[200] ?? 0) + (statuses[302] ?? 0), 200);
    assert.ok(slowestMs < 10_000, `slowest answer ${Math.round(slowestMs)} ms`);
  });

  test('writes that fail after inserting keep nothing, while the writes around them are kept', async () => {
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? send(base, { method: 'POST', path: '/library/write_then_fail', form: `name=Ghost-${i}` })
        : send(base, { method: 'POST', path: '/library/', form: `name=Kept-${i}` }),
    );
    const answers = await Promise.all(calls);
    answers.forEach((answer, i) => assert.equal(answer.status, i % 2 === 0 ? 409 : 302, `request ${i}`));
    const books = JSON.parse((await send(base, { path: '/books/', headers: { accept: 'application/json' } })).body) as Array<{ name: string }>;
    assert.deepEqual(books.filter((book) => book.name.startsWith('Ghost-')), []);
    assert.equal(books.filter((book) => book.name.startsWith('Kept-')).length, 20);
  });

  test('clients that leave mid-request (while sending, or before the answer) leave the server serving', { timeout: 30_000 }, async () => {
    const { hostname, port } = new URL(base);
    for (let i = 0; i < 20; i++) {
      const socket = connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      const body = `name=Left-${i}`;
      const head = `POST /library/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
      // Half leave with their body half sent; the others right after sending all of it.
      socket.write(i % 2 === 0 ? head + body.slice(0, 4) : head + body);
      await sleep(i % 2 === 0 ? 20 : 0);
      socket.destroy();
    }
    await sleep(100);
    // Nothing was left holding the writer or a reader: the next write and reads answer at once.
    const write = await send(base, { method: 'POST', path: '/library/', form: 'name=After' }, 5000);
    assert.equal(write.status, 302);
    assert.ok(write.ms < 1000, `the write after them took ${Math.round(write.ms)} ms`);
    for (const path of ['/', '/library/', '/admin/login']) assert.equal((await send(base, { path }, 5000)).status, 200, path);
    const books = JSON.parse((await send(base, { path: '/books/', headers: { accept: 'application/json' } })).body) as Array<{ name: string }>;
    // A client that left before its body was complete wrote nothing (its handler never ran).
    assert.deepEqual(books.filter((book) => /^Left-\d*[02468]$/.test(book.name)), []);
    assert.equal(books.filter((book) => book.name === 'After').length, 1);
  });
});
