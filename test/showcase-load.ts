// Requests to a served showcase over real sockets on 127.0.0.1 (one connection each, bounded in
// time), and the mixed table of concurrent reads and writes that its SQLite and PostgreSQL tests
// both run: whatever was answered 2xx/3xx is stored exactly once, and nothing else is.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';

/** One answer, and when it arrived (ms since the request was sent). */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number;
}

/** One request of a test. */
interface Call {
  readonly method?: string;
  readonly path: string;
  readonly form?: string;
  readonly headers?: Record<string, string>;
}

/**
 * Sends one request on a connection of its own and reads the whole answer, failing after `ms`.
 *
 * @example
 * ```ts
 * const { status } = await send(base, { method: 'POST', path: '/library/', form: 'name=Dune' });
 * ```
 */
export function send(base: string, call: Call, ms = 15_000): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close', ...call.headers };
    if (call.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const req = request(new URL(call.path, base), { method: call.method ?? 'GET', agent: false, headers, timeout: ms }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${call.method ?? 'GET'} ${call.path}: no answer within ${ms} ms`)));
    req.on('error', reject);
    req.end(call.form);
  });
}

/**
 * A POST whose headers and first `head` bytes of body are sent at once, the rest only when
 * `finish()` is called: a slow client. `answer` resolves with the raw response text and when it
 * arrived (ms since the start).
 *
 * @example
 * ```ts
 * const slow = await slowPost(base, '/library/', 'name=Dune', 5);
 * slow.finish();
 * (await slow.answer).text; // 'HTTP/1.1 302 Found…'
 * ```
 */
export async function slowPost(base: string, path: string, form: string, head: number): Promise<{ finish(): void; answer: Promise<{ text: string; ms: number }>; started: number }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const started = performance.now();
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const answer = new Promise<{ text: string; ms: number }>((resolve, reject) => {
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`POST ${path}: no answer within 15 s`))), 15_000);
    socket.once('close', () => (clearTimeout(timer), resolve({ text, ms: performance.now() - started })));
    socket.once('error', reject);
  });
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `Content-Length: ${Buffer.byteLength(form)}\r\n\r\n${form.slice(0, head)}`,
  );
  return { finish: () => void socket.end(form.slice(head)), answer, started };
}

/** The books of the showcase, as its JSON list gives them. */
async function storedBooks(base: string): Promise<Array<{ id: string; name: string }>> {
  const res = await send(base, { path: '/books/', headers: { accept: 'application/json' } });
  assert.equal(res.status, 200);
  return JSON.parse(res.body) as Array<{ id: string; name: string }>;
}

/** What {@link mixedLoad} saw. */
export interface MixedResult {
  /** How many answers had each status. */
  readonly statuses: Record<number, number>;
  /** The slowest answer, in ms. */
  readonly slowestMs: number;
}

/**
 * Sends `total` requests at once, one connection each, mixing reads (the landing page, the books
 * as HTML and JSON, the library, an author's books, the admin login page) and writes (`POST
 * /books/` as JSON, `POST /library/` as a form, `POST /authors/1/books/`), each write with a name
 * of its own; then asserts that every answer is 2xx/3xx, and that the database holds exactly one
 * book for each write answered so — no more, no fewer, nothing of another run.
 *
 * @example
 * ```ts
 * const { statuses } = await mixedLoad(base, 200, 'run1');
 * ```
 */
export async function mixedLoad(base: string, total: number, tag: string): Promise<MixedResult> {
  const before = new Set((await storedBooks(base)).map((book) => book.name));
  const reads: Call[] = [
    { path: '/' },
    { path: '/books/' },
    { path: '/books/', headers: { accept: 'application/json' } },
    { path: '/library/' },
    { path: '/authors/1/books/' },
    { path: '/admin/login' },
  ];
  const calls: Array<Call & { wrote?: string }> = [];
  for (let i = 0; i < total; i++) {
    if (i % 2 === 0) {
      calls.push(reads[(i / 2) % reads.length]!);
      continue;
    }
    const name = `${tag}-${i}`;
    const writes: Call[] = [
      { method: 'POST', path: '/books/', form: `name=${name}`, headers: { accept: 'application/json' } },
      { method: 'POST', path: '/library/', form: `name=${name}` },
      { method: 'POST', path: '/authors/1/books/', form: `name=${name}` },
    ];
    calls.push({ ...writes[((i - 1) / 2) % writes.length]!, wrote: name });
  }
  const answers = await Promise.all(calls.map((call) => send(base, call)));
  const statuses: Record<number, number> = {};
  const kept: string[] = [];
  answers.forEach((answer, i) => {
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const call = calls[i]!;
    assert.ok(answer.status >= 200 && answer.status < 400, `${call.method ?? 'GET'} ${call.path}: ${answer.status} ${answer.body.slice(0, 200)}`);
    if (call.wrote !== undefined) kept.push(call.wrote);
  });
  const after = (await storedBooks(base)).map((book) => book.name).filter((name) => !before.has(name));
  assert.deepEqual([...after].sort(), [...kept].sort(), 'the new rows are exactly the writes answered 2xx/3xx, once each');
  return { statuses, slowestMs: Math.max(...answers.map((answer) => answer.ms)) };
}
