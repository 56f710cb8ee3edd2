import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { definePlugin } from '@hickory/core';
import { makeApp } from './app.ts';
import { assertHealthy, listening } from './harness.ts';

// One form of many large text fields must not fill the heap: the fields held in memory are capped
// as a whole (multipart limit "totalFieldSize", 20 MiB by default), past which the answer is 413.

const B = 'memoryBoundary';
const MiB = 1024 * 1024;
const FIELDS = 100; // 100 MiB offered, five times the cap; the old code held every byte of it
const value = Buffer.alloc(MiB - 64, 'v');

const fieldHead = (i: number) => `--${B}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n`;
const CLOSING = `--${B}--\r\n`;

interface Outcome {
  head: string;
  body: string;
  sentFields: number;
  peakRssGrowth: number;
}

// Streams the form field by field (with backpressure) until the server answers or closes, and
// samples this process's RSS (the server runs in it) all along.
function sendLargeForm(port: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const received: Buffer[] = [];
    let sentFields = 0;
    let answered = false;
    const timer = setTimeout(() => finish(new Error('no answer within 20 s')), 20_000);
    function finish(error?: Error): void {
      clearInterval(sampler);
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      const text = Buffer.concat(received).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, end), body: text.slice(end + 4), sentFields, peakRssGrowth: peak - base });
    }
    const writeNext = (): void => {
      while (!answered && sentFields < FIELDS) {
        const head = fieldHead(sentFields);
        sentFields++;
        socket.write(head);
        socket.write(value);
        if (!socket.write('\r\n')) return void socket.once('drain', writeNext);
      }
      if (!answered && sentFields === FIELDS) socket.write(CLOSING);
    };
    socket.on('connect', () => {
      let length = Buffer.byteLength(CLOSING);
      for (let i = 0; i < FIELDS; i++) length += Buffer.byteLength(fieldHead(i)) + value.length + 2;
      socket.write(`POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${length}\r\n\r\n`);
      writeNext();
    });
    socket.on('data', (chunk: Buffer) => {
      answered = true;
      received.push(chunk);
      const text = Buffer.concat(received).toString('utf8');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const end = text.indexOf('\r\n\r\n');
      if (length !== undefined && end >= 0 && Buffer.byteLength(text.slice(end + 4)) >= Number(length)) finish();
    });
    // The server closes the connection after its 413 while this client may still be sending: TCP
    // can then reset it before the answer is read (Node does no lingering close). The server's
    // side of the story is checked separately.
    socket.on('error', () => finish());
    socket.on('close', () => finish());
  });
}

test('a form of 100 × 1 MiB text fields → 413 "totalFieldSize", with memory bounded', async () => {
  const refusals: string[] = [];
  const watch = definePlugin({
    name: 'watch-refusals',
    apply(kernel) {
      kernel.hooks.onAbort.tap('watch-refusals', (error) => {
        refusals.push(`${error.status} ${error.detail}`);
        return undefined;
      });
    },
  });
  const app = makeApp().use(watch);
  const port = await listening(app);
  try {
    const outcome = await sendLargeForm(port);
    const expected = `The form's text fields are larger than ${20 * MiB} bytes together (multipart limit "totalFieldSize").`;
    assert.deepEqual(refusals, [`413 ${expected}`]);
    if (outcome.head !== '') {
      assert.match(outcome.head, /^HTTP\/1\.1 413 /);
      assert.match(outcome.head, /\r\nconnection: close/i);
      assert.equal((JSON.parse(outcome.body) as { description: string }).description, expected);
    }
    // Refused a little past the cap, not after reading the whole form.
    assert.ok(outcome.sentFields < 70, `${outcome.sentFields} fields were sent before the answer`);
    // What is held: at most the cap as strings plus the parser's buffers; 100 MiB would show.
    assert.ok(outcome.peakRssGrowth < 150 * MiB, `RSS grew by ${(outcome.peakRssGrowth / MiB).toFixed(1)} MiB`);
    await assertHealthy(app, port, 'after the large form');
  } finally {
    await app.close();
  }
});
