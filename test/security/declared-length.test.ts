import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { assertNothingUncaught, listening } from './harness.ts';

// A streamed body longer than the Content-Length its handler set used to be written in full: on
// keep-alive the extra bytes read as a forged next response. A shorter one left the client waiting.

const FORGED = 'HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged';

class Root {
  @expose() index() {
    return 'ok';
  }
  @expose() longer() {
    response.headers['Content-Type'] = 'text/plain';
    response.headers['Content-Length'] = '5';
    response.app_iter = Readable.from([Buffer.from('hello'), Buffer.from(FORGED)]);
  }
  @expose() endless() {
    response.headers['Content-Length'] = '3';
    let produced = 0;
    response.app_iter = new Readable({
      read() {
        produced++;
        // Bounded all the same: the test must stop by itself if the server kept reading.
        this.push(produced > 10_000 ? null : Buffer.from('xyz'));
      },
    });
  }
  @expose() shorter() {
    response.headers['Content-Type'] = 'text/plain';
    response.headers['Content-Length'] = '10';
    response.app_iter = Readable.from([Buffer.from('only5')]);
  }
}

// Sends `path` on a keep-alive connection and collects everything until the server closes it.
function keepAliveExchange(port: number, path: string): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after 5 s; received ${JSON.stringify(text)}`));
    }, 5_000);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  });
}

test('an app_iter longer than its Content-Length: exactly the declared bytes, then the connection closes', async () => {
  const warnings: string[] = [];
  const app = createApp({ root: new Root(), logger: { info() {}, warn: (m: string) => warnings.push(m), error() {} } });
  const port = await listening(app);
  try {
    const { text } = await keepAliveExchange(port, '/longer');
    const [head, body] = text.split('\r\n\r\n', 2) as [string, string];
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(head, /\r\nContent-Length: 5\r\n/i);
    assert.equal(text.slice(head.length + 4), 'hello', 'nothing after the declared body');
    assert.equal(body, 'hello');
    assert.equal(text.match(/HTTP\/1\.1/g)?.length, 1, 'no forged second response');
    const endless = await keepAliveExchange(port, '/endless');
    assert.equal(endless.text.split('\r\n\r\n')[1], 'xyz');
    assert.deepEqual(warnings, [
      'GET /longer: the body was longer than the 5 bytes its Content-Length declared; the rest was dropped and the connection closed',
      'GET /endless: the body was longer than the 3 bytes its Content-Length declared; the rest was dropped and the connection closed',
    ]);
    assertNothingUncaught('longer bodies');
    assert.equal((await app.inject('/')).body, 'ok');
  } finally {
    await app.close();
  }
});

test('an app_iter shorter than its Content-Length: the connection closes at once, the client never hangs', async () => {
  const warnings: string[] = [];
  const app = createApp({ root: new Root(), logger: { info() {}, warn: (m: string) => warnings.push(m), error() {} } });
  const port = await listening(app);
  try {
    const { text, closedAfterMs } = await keepAliveExchange(port, '/shorter');
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nonly5$/);
    assert.ok(closedAfterMs < 4_000, `closed after ${closedAfterMs} ms`);
    assert.deepEqual(warnings, ['GET /shorter: the body ended before the 10 bytes its Content-Length declared; the connection is closed so the client does not wait for the rest']);
    assertNothingUncaught('shorter bodies');
  } finally {
    await app.close();
  }
});
