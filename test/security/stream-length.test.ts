import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { assertNothingUncaught, exchangeUntilClosed, listening } from './harness.ts';

// Issue #22, "an app_iter longer than the Content-Length its handler set is written in full": what
// declared-length.test.ts leaves open. Clients read `5 ` and `5, 5` as 5 (RFC 9110 §8.6), so the
// kernel holds the stream to that too, or the rest reads as a forged next response; a value that
// is no byte count is dropped rather than sent for each client to read its own way.

const FORGED = 'HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged';

function streamWithLength(length: string | string[]): void {
  response.headers['Content-Type'] = 'text/plain';
  response.headers['Content-Length'] = length;
  response.app_iter = Readable.from([Buffer.from('hello'), Buffer.from(FORGED)]);
}

class Root {
  @expose() index() {
    return 'ok';
  }
  @expose() padded() {
    streamWithLength(' 5 ');
  }
  @expose() repeated() {
    streamWithLength(['5', '5']);
  }
  @expose() listed() {
    streamWithLength('5, 5');
  }
  @expose() letters() {
    streamWithLength('abc');
  }
  @expose() disagreeing() {
    streamWithLength(['5', '6']);
  }
  @expose() hex() {
    streamWithLength('0x10');
  }
}

function keepAliveGet(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;
}

function appWithWarnings(): { app: ReturnType<typeof createApp>; warnings: string[] } {
  const warnings: string[] = [];
  const app = createApp({ root: new Root(), logger: { info() {}, warn: (message: string) => warnings.push(message), error() {} } });
  return { app, warnings };
}

test('a Content-Length with spaces or repeated is held to as clients read it: the declared bytes, then the connection closes', async () => {
  const { app, warnings } = appWithWarnings();
  const port = await listening(app);
  try {
    for (const path of ['/padded', '/repeated', '/listed']) {
      // A second request is pipelined: it must get no answer, and nothing may look like one.
      const { text } = await exchangeUntilClosed(port, keepAliveGet(path) + keepAliveGet('/'));
      const end = text.indexOf('\r\n\r\n');
      const head = text.slice(0, end);
      assert.match(head, /^HTTP\/1\.1 200 OK\r\n/, path);
      assert.deepEqual(head.match(/\r\ncontent-length:[^\r]*/gi), ['\r\nContent-Length: 5'], `${path}: one Content-Length, as held to`);
      assert.equal(text.slice(end + 4), 'hello', `${path}: exactly the declared bytes`);
    }
    assert.equal(warnings.length, 3);
    for (const warning of warnings) assert.match(warning, /longer than the 5 bytes its Content-Length declared/);
    assertNothingUncaught('padded Content-Length');
  } finally {
    await app.close();
  }
});

test('a Content-Length that is no byte count is dropped and logged: the body goes out framed by the server', async () => {
  const { app, warnings } = appWithWarnings();
  const port = await listening(app);
  try {
    for (const path of ['/letters', '/disagreeing', '/hex']) {
      const { text } = await exchangeUntilClosed(port, keepAliveGet(path) + 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      const end = text.indexOf('\r\n\r\n');
      const head = text.slice(0, end);
      assert.doesNotMatch(head, /content-length/i, path);
      assert.match(head, /\r\nTransfer-Encoding: chunked/i, path);
      // The whole stream as chunks (no forged response: its bytes are inside a chunk), then the
      // pipelined GET /. How the writes are cut into chunks is Node's choice (it differs by line).
      const { data, rest } = decodeChunked(text.slice(end + 4));
      assert.equal(data, `hello${FORGED}`, path);
      assert.ok(rest.startsWith('HTTP/1.1 200 OK\r\n'), path);
      assert.ok(text.endsWith('\r\n\r\nok'), `${path}: the connection went on`);
    }
    assert.deepEqual(
      warnings.map((w) => /^GET \/\w+: the Content-Length (.+) set for a streamed body is not a byte count/.exec(w)?.[1]),
      ['"abc"', '["5","6"]', '"0x10"'],
    );
    assertNothingUncaught('unreadable Content-Length');
  } finally {
    await app.close();
  }
});

// A chunked body from its first chunk: the bytes it carries, and what follows its last chunk.
function decodeChunked(text: string): { data: string; rest: string } {
  let data = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    assert.ok(lineEnd !== -1, 'a chunk size line');
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    assert.ok(Number.isInteger(size), `a chunk size, not ${JSON.stringify(text.slice(at, lineEnd))}`);
    at = lineEnd + 2;
    if (size === 0) return { data, rest: text.slice(at + 2) };
    data += text.slice(at, at + size);
    at += size + 2;
  }
}
