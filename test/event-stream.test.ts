// Server-sent events (issue #38, item 1): `eventStream()` sends its head at once, formats events,
// beats while quiet, follows the client's pace, ends when the client leaves or the app closes,
// holds no transaction, and `send_timeout` cuts only a client that stopped reading.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { createKernel, eventStream, request, type ServerSentEvent } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { hooksPlugin } from '@hickory/hooks';
import { recordingTransaction } from './fixtures/recording-transaction.ts';
import { listening, withTimeout } from './security/harness.ts';

/** A raw client: what arrived so far, and when the head came. */
function subscribe(port: number, path: string, headers = ''): { socket: Socket; text: () => string; headAt: Promise<number>; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let text = '';
  let headSeen!: (ms: number) => void;
  const headAt = new Promise<number>((done) => (headSeen = done));
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    text += chunk;
    if (text.includes('\r\n\r\n')) headSeen(Date.now() - started);
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
  return { socket, text: () => text, headAt, closed };
}

// The body of a chunked HTTP/1.1 response.
function dechunk(body: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, lineEnd), 16);
    if (!(size > 0)) return out;
    out += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

test('the head goes out at once; events are formatted (JSON data, split lines, id, retry, event); Last-Event-ID is readable', async () => {
  class Root {
    @expose() feed() {
      const last = request.headers['last-event-id'];
      return eventStream(
        (async function* (): AsyncGenerator<ServerSentEvent> {
          await sleep(400);
          yield { event: 'book', data: { id: 1, name: 'Dune' }, id: 7 };
          yield { data: 'two\nlines', retry: 3000 };
          yield { event: 'evil\nid: 99', data: `after ${String(last)}` };
        })(),
        { heartbeat: 0 },
      );
    }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  const port = await listening(app);
  try {
    const client = subscribe(port, '/feed', 'Last-Event-ID: 6\r\nConnection: close\r\n');
    const headMs = await withTimeout(client.headAt, 'the head');
    assert.ok(headMs < 300, `the head came after ${headMs} ms, before the first event at 400 ms`);
    await withTimeout(client.closed, 'the end of the stream');
    const [head, body] = client.text().split('\r\n\r\n') as [string, string];
    assert.match(head, /^HTTP\/1\.1 200 OK/);
    assert.match(head, /\r\ncontent-type: text\/event-stream; charset=utf-8/i);
    assert.match(head, /\r\ncache-control: no-cache/i);
    assert.match(head, /\r\nx-accel-buffering: no/i);
    assert.equal(dechunk(body), 'event: book\nid: 7\ndata: {"id":1,"name":"Dune"}\n\nretry: 3000\ndata: two\ndata: lines\n\nevent: evil id: 99\ndata: after 6\n\n');
  } finally {
    await app.close();
  }
});

test('a quiet stream beats, is never cut by send_timeout while its client reads, and ends at once with app.close()', async () => {
  let stopped = false;
  class Root {
    @expose() quiet() {
      return eventStream(
        async function* (signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
          try {
            await new Promise((resolve) => signal.addEventListener('abort', resolve));
          } finally {
            stopped = true;
          }
        },
        { heartbeat: 100 },
      );
    }
  }
  const app = createKernel({ root: new Root(), logger: false, send_timeout: 150, close_timeout: 10_000 }).use(dispatchPlugin);
  const port = await listening(app);
  const client = subscribe(port, '/quiet');
  await withTimeout(client.headAt, 'the head');
  await sleep(600);
  assert.ok((client.text().match(/:\n\n/g) ?? []).length >= 3, `heartbeats: ${JSON.stringify(client.text())}`);
  assert.equal(client.socket.destroyed, false, 'not cut by send_timeout (150 ms) while quiet');
  const started = Date.now();
  await withTimeout(app.close(), 'close');
  assert.ok(Date.now() - started < 2_000, 'close did not wait for close_timeout');
  await withTimeout(client.closed, 'the stream ended');
  assert.equal(stopped, true, 'the source was told to stop');
});

test('a client that leaves stops the source; a client that reads nothing does not make the source run ahead', async () => {
  let produced = 0;
  let stoppedAt = -1;
  class Root {
    @expose() firehose() {
      return eventStream(
        (async function* (): AsyncGenerator<ServerSentEvent> {
          try {
            for (;;) {
              produced++;
              yield { data: 'x'.repeat(1024) };
            }
          } finally {
            stoppedAt = produced;
          }
        })(),
        { heartbeat: 0 },
      );
    }
  }
  const app = createKernel({ root: new Root(), logger: false, send_timeout: 60_000 }).use(dispatchPlugin);
  const port = await listening(app);
  try {
    const client = subscribe(port, '/firehose');
    client.socket.pause();
    await sleep(500);
    const whileStalled = produced;
    await sleep(300);
    assert.equal(produced, whileStalled, 'no event produced while the client takes nothing');
    // Bounded by the socket buffers (a few MB on loopback), never by the whole stream.
    assert.ok(produced < 20_000, `${produced} events of 1 KiB were made for a client that read nothing`);
    client.socket.destroy();
    await sleep(200);
    assert.ok(stoppedAt >= 0, 'the source ran its finally when the client left');
  } finally {
    await app.close();
  }
});

test('an event stream holds no transaction: it ended before the first event', async () => {
  const events: string[] = [];
  const tx = recordingTransaction(events);
  class Root {
    @expose() feed() {
      tx.transaction();
      return eventStream([{ data: 'one' }, { data: 'two' }], { heartbeat: 0 });
    }
  }
  const app = createKernel({ root: new Root(), logger: false, hooks: [tx] }).use(hooksPlugin);
  try {
    const answered = await app.inject('/feed');
    assert.equal(answered.statusCode, 200);
    assert.equal(answered.body, 'data: one\n\ndata: two\n\n');
    assert.deepEqual(events, ['start_ro', 'clear']);
  } finally {
    await app.close();
  }
});
