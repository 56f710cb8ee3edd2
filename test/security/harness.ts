import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { TestContext } from 'node:test';
import type { Kernel } from '@hickory/core';
import { callsSince, makeApp, snapshotCalls } from './app.ts';

/**
 * The shared machinery of the hardening suites: a raw HTTP/1.1 client on `node:net` (the bytes are
 * sent exactly as written), `inject()` with the same case, and the invariants checked after
 * every case (process alive, nothing uncaught, prototypes untouched, no unexpected handler call,
 * a normal request still answers 200).
 */

/** What a case reads from an answer, the same through `inject()` and a socket. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Header lines as received (socket only): to prove no header was injected. */
  rawHead: string;
  body: string;
}

/** How long one request may take before the test fails as a hang. */
const CLIENT_TIMEOUT_MS = 4_000;

// ---------------------------------------------------------------------------------------------
// Uncaught errors: one listener pair for the whole process, read by every case.

const uncaught: unknown[] = [];
process.on('uncaughtException', (error) => uncaught.push(error));
process.on('unhandledRejection', (error) => uncaught.push(error));

// ---------------------------------------------------------------------------------------------
// Prototype snapshots.

type Snapshot = Map<string | symbol, PropertyDescriptor>;
const guarded = { Object: Object.prototype, Function: Function.prototype, Array: Array.prototype, String: String.prototype };

function snapshot(target: object): Snapshot {
  const out: Snapshot = new Map();
  for (const key of Reflect.ownKeys(target)) out.set(key, Object.getOwnPropertyDescriptor(target, key)!);
  return out;
}

const baseline = Object.fromEntries(Object.entries(guarded).map(([name, proto]) => [name, snapshot(proto)])) as Record<string, Snapshot>;

/** Throws when a guarded prototype gained, lost or changed a property since the suite started. */
export function assertPrototypesUnchanged(context: string): void {
  for (const [name, proto] of Object.entries(guarded)) {
    const before = baseline[name]!;
    const now = snapshot(proto);
    const added = [...now.keys()].filter((k) => !before.has(k)).map(String);
    const removed = [...before.keys()].filter((k) => !now.has(k)).map(String);
    assert.deepEqual({ added, removed }, { added: [], removed: [] }, `${context}: ${name}.prototype keys changed`);
    for (const [key, d] of now) {
      const b = before.get(key)!;
      const same = d.value === b.value && d.get === b.get && d.set === b.set && d.writable === b.writable && d.enumerable === b.enumerable && d.configurable === b.configurable;
      assert.ok(same, `${context}: ${name}.prototype.${String(key)} changed`);
    }
  }
  assert.equal(({} as Record<string, unknown>)['x'], undefined, `${context}: ({}).x is set`);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined, `${context}: ({}).polluted is set`);
}

/** Throws when anything reached `uncaughtException` / `unhandledRejection`. */
export function assertNothingUncaught(context: string): void {
  assert.deepEqual(uncaught.map(String), [], `${context}: uncaught errors`);
}

// ---------------------------------------------------------------------------------------------
// Clients.

/**
 * Sends `bytes` on a fresh connection and reads until the server closes it or a complete
 * response has arrived; fails after {@link CLIENT_TIMEOUT_MS}.
 */
export function rawExchange(port: number, bytes: Buffer | string, options: { halfClose?: boolean; timeout?: number } = {}): Promise<Answer> {
  const timeout = options.timeout ?? CLIENT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      const text = Buffer.concat(chunks).toString('latin1');
      // Closed without a byte: reported as status 0 (Node does this for CONNECT without a handler).
      if (text.length === 0) return resolve({ status: 0, headers: {}, rawHead: '', body: '' });
      try {
        resolve(parseResponse(text));
      } catch (parseError) {
        reject(parseError);
      }
    };
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${timeout} ms`)), timeout);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks).toString('latin1'))) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset after answering a refused body: keep what arrived.
      if (chunks.length > 0 || error.code === 'ECONNRESET' || error.code === 'EPIPE') finish();
      else finish(error);
    });
    // Half-closing makes a body shorter than its Content-Length end instead of wait (Node's
    // server then drops the request, so only cases about short bodies ask for it).
    if (options.halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

function isComplete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = text.slice(0, end).toLowerCase();
  const body = text.slice(end + 4);
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (length) return Buffer.byteLength(body, 'latin1') >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) return /(^|\r\n)0\r\n\r\n$/.test(body);
  return /^http\/1\.1 (1\d\d|204|304)/.test(head);
}

function parseResponse(text: string): Answer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no response head in ${JSON.stringify(text.slice(0, 200))}`);
  const rawHead = text.slice(0, end);
  const [statusLine, ...lines] = rawHead.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
  return { status, headers, rawHead, body: Buffer.from(body, 'latin1').toString('utf8') };
}

function unchunk(text: string): string {
  let out = '';
  let pos = 0;
  for (;;) {
    const eol = text.indexOf('\r\n', pos);
    if (eol < 0) return out;
    const size = parseInt(text.slice(pos, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    pos = eol + 2 + size + 2;
  }
}

/** One bad-input case: a request and what must come of it. */
export interface Case {
  name: string;
  method?: string;
  /** The request target exactly as sent on the socket (origin-form, absolute-form, …). */
  target: string;
  /** The target for `inject()` when it must differ (light-my-request parses URLs itself). */
  injectTarget?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Half-close the connection after sending (a body shorter than its Content-Length). */
  halfClose?: boolean;
  /** Send the body without a Content-Length header (chunked on the socket). */
  chunked?: boolean;
  /** Acceptable statuses (both ways unless {@link Case.injectStatus} is given). */
  status: number[];
  injectStatus?: number[];
  /** Skip `inject()` (the case is about bytes only a socket carries). */
  socketOnly?: boolean;
  /** Handlers allowed to run (by counter name); any other counter that moves fails the case. */
  runs?: string[];
  /** Handlers allowed to run through `inject()` when they differ (it normalizes dot segments). */
  injectRuns?: string[];
  /** Extra checks of the answer. */
  check?: (answer: Answer, how: 'inject' | 'socket') => void;
}

/** Builds the exact request bytes of a case for the socket. */
export function requestBytes(c: Case): Buffer {
  const body = c.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body, 'utf8');
  const headers: Record<string, string> = { host: '127.0.0.1', connection: 'close', ...c.headers };
  const names = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  let payload = body;
  if (c.chunked) {
    headers['transfer-encoding'] = 'chunked';
    payload = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  } else if (body.length > 0 && !names.has('content-length')) {
    headers['content-length'] = String(body.length);
  }
  const head = `${c.method ?? 'GET'} ${c.target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/** Sends a case through `inject()`, bounded by {@link CLIENT_TIMEOUT_MS}. */
export async function injectCase(app: Kernel, c: Case): Promise<Answer> {
  const headers = { ...c.headers };
  const sending = app.inject({
    method: (c.method ?? 'GET') as 'GET',
    url: c.injectTarget ?? c.target,
    headers,
    payload: c.body,
  });
  const res = await withTimeout(sending, `inject ${c.name}`);
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.statusCode, headers: flat, rawHead: '', body: res.body };
}

/** Rejects when `promise` takes longer than {@link CLIENT_TIMEOUT_MS}. */
export function withTimeout<T>(promise: Promise<T>, what: string, ms = CLIENT_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (hang)`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// Tells of internals leaking into a body: stack frames, file paths, error class names.
const LEAKS = [/\bat .+:\d+:\d+/, /\/srv\/|\/work\/|\/home\/|node_modules|\.ts:\d|\.js:\d/, /\b(Type|Range|Syntax|Reference)?Error:/, /secret/i];

/** Throws when a body reveals internals. */
export function assertNoLeak(answer: Answer, context: string): void {
  for (const pattern of LEAKS) assert.doesNotMatch(answer.body, pattern, `${context}: the body reveals internals`);
}

/**
 * Runs one case through `inject()` and the socket, checking its status, the leak rule, the
 * handler counters and every invariant afterwards, including that `GET /` still answers 200.
 */
async function runCase(app: Kernel, port: number, c: Case): Promise<void> {
  const ways: Array<'inject' | 'socket'> = c.socketOnly ? ['socket'] : ['inject', 'socket'];
  for (const how of ways) {
    const context = `${c.name} [${how}]`;
    const before = snapshotCalls();
    const answer = how === 'inject' ? await injectCase(app, c) : await rawExchange(port, requestBytes(c), { halfClose: c.halfClose });
    const expected = how === 'inject' && c.injectStatus ? c.injectStatus : c.status;
    assert.ok(expected.includes(answer.status), `${context}: status ${answer.status}, expected one of ${expected.join('/')}; body ${answer.body.slice(0, 200)}`);
    assertNoLeak(answer, context);
    const ran = callsSince(before);
    const allowed = (how === 'inject' ? c.injectRuns : undefined) ?? c.runs ?? [];
    const unexpected = ran.filter((name) => !allowed.includes(name));
    assert.deepEqual(unexpected, [], `${context}: handlers ran that should not have`);
    c.check?.(answer, how);
    await assertHealthy(app, port, context);
  }
}

/** The invariants after any case: nothing uncaught, prototypes intact, `GET /` → 200 both ways. */
export async function assertHealthy(app: Kernel, port: number, context: string): Promise<void> {
  assertNothingUncaught(context);
  assertPrototypesUnchanged(context);
  const viaInject = await withTimeout(app.inject({ method: 'GET', url: '/' }), `${context}: health inject`);
  assert.equal(viaInject.statusCode, 200, `${context}: GET / via inject after the case`);
  const viaSocket = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.equal(viaSocket.status, 200, `${context}: GET / over a socket after the case`);
  assert.equal(viaSocket.body, 'ok');
}

/** A listening app for a suite; close it with `app.close()`. */
export async function listening(app: Kernel): Promise<number> {
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(url).port);
}

/**
 * Runs a table of bad-input cases as subtests against one fresh {@link makeApp} app, listening on
 * 127.0.0.1, closed at the end.
 *
 * @example
 * ```ts
 * test('bad paths', (t) => runTable(t, cases));
 * ```
 */
export async function runTable(t: TestContext, cases: readonly Case[]): Promise<void> {
  const app = makeApp();
  const port = await listening(app);
  try {
    for (const c of cases) await t.test(c.name, () => runCase(app, port, c));
  } finally {
    await app.close();
  }
}

/** Everything a server sent on one connection, and how long it kept the connection open. */
export interface UntilClosed {
  /** The bytes received, as latin1 text (several responses when the server answered several). */
  text: string;
  closedAfterMs: number;
}

/**
 * Sends `bytes` (keep-alive requests, maybe pipelined) on a fresh connection and collects every
 * byte until the server closes it; rejects when it is still open after `timeout` ms. For cases
 * where what comes after a response matters: a forged next response, a connection left hanging.
 *
 * @example
 * ```ts
 * const { text } = await exchangeUntilClosed(port, 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
 * ```
 */
export function exchangeUntilClosed(port: number, bytes: Buffer | string, timeout = CLIENT_TIMEOUT_MS): Promise<UntilClosed> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    const chunks: Buffer[] = [];
    const text = () => Buffer.concat(chunks).toString('latin1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after ${timeout} ms; received ${JSON.stringify(text().slice(0, 500))}`));
    }, timeout);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer is a close like any other here: what arrived is what counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: text(), closedAfterMs: Date.now() - started });
    });
    socket.write(bytes);
  });
}
