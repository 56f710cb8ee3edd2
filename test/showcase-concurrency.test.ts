// The showcase on SQLite under concurrency, over real sockets on 127.0.0.1: a slow client holds
// nothing, 200 mixed requests at once are all answered and stored exactly as answered, a write
// that fails keeps nothing (an `after` hook that throws included), and clients that leave
// mid-request leave the server serving. Once in this process, once as `hickory serve --workers 2`
// (two processes sharing the file, as `npm start` can run).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hook, type HookState } from '@hickory/hooks';
import { createSandbox } from '@hickory/sandbox/app';
import { REPO, serveFixture } from './fixtures/cli/harness.ts';
import { mixedLoad, send, slowPost } from './showcase-load.ts';

// A hook whose `after` throws for requests that ask for it, and runs before the showcase's
// TransactionHook's `after` (after hooks run in reverse priority): in the old design, that left
// the transaction open and every later request waiting.
class BreaksAfter extends Hook {
  override priority = 200;
  override after(state: HookState) {
    if (state.request.headers['x-break-after'] === 'yes') throw new Error('an after hook broke');
  }
}

interface Served {
  readonly base: string;
  stop(): Promise<void>;
}

// A file database, as `npm start` uses: a writer connection and read-only ones in WAL mode.
const SETUPS: Array<{ name: string; inProcess: boolean; start(file: string): Promise<Served> }> = [
  {
    name: 'one process',
    inProcess: true,
    async start(file) {
      // The breaker joins the showcase's own TransactionHook.
      const app = await createSandbox({ logger: false, hooks: [new BreaksAfter()] }, { location: file });
      const base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
      return { base, stop: () => app.close() };
    },
  },
  {
    name: 'hickory serve --workers 2',
    inProcess: false,
    async start(file) {
      const { cli, url } = await serveFixture(['sandbox/config.ts', '--host', '127.0.0.1', '--port', '0', '--workers', '2'], REPO, undefined, { HICKORY_SANDBOX_DB: file, DATABASE_URL: '' });
      return {
        base: url,
        async stop() {
          cli.child.kill('SIGTERM');
          await cli.exited(20_000).catch(() => cli.stop());
        },
      };
    },
  },
];

for (const setup of SETUPS)
describe(`the showcase on a SQLite file, under concurrency (${setup.name})`, () => {
  let dir = '';
  let served: Served | undefined;
  let base = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hickory-showcase-concurrency-'));
    served = await setup.start(join(dir, 'books.sqlite'));
    base = served.base;
  });

  after(async () => {
    await served?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('an after hook that throws: that write is a 500 and kept nothing; the next requests are unaffected', { skip: !setup.inProcess && 'the breaking hook is added in process' }, async () => {
    const broken = await send(base, { method: 'POST', path: '/library/', form: 'name=Broken', headers: { 'x-break-after': 'yes' } }, 5000);
    assert.equal(broken.status, 500);
    const next = await send(base, { method: 'POST', path: '/library/', form: 'name=Whole' }, 5000);
    assert.equal(next.status, 302);
    assert.ok(next.ms < 1000, `the next write took ${Math.round(next.ms)} ms`);
    const books = JSON.parse((await send(base, { path: '/books/', headers: { accept: 'application/json' } })).body) as Array<{ name: string }>;
    assert.deepEqual(books.filter((book) => book.name === 'Broken'), []);
    assert.equal(books.filter((book) => book.name === 'Whole').length, 1);
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
