import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { listening, rawExchange } from './harness.ts';

// An application that sets Transfer-Encoding: chunked used to get it on the wire next to the
// Content-Length the kernel counted: never both (RFC 9112 §6.3).

class Root {
  @expose() text() {
    response.headers['Transfer-Encoding'] = 'chunked';
    return 'hello';
  }
  @expose() declared() {
    response.headers['Transfer-Encoding'] = 'chunked';
    response.headers['Content-Length'] = '5';
    response.app_iter = Readable.from(['hel', 'lo']);
  }
  @expose() streamed() {
    response.headers['Transfer-Encoding'] = 'chunked';
    response.app_iter = Readable.from(['hel', 'lo']);
  }
}

test('Transfer-Encoding and Content-Length are never sent together', async () => {
  const app = createApp({ root: new Root(), logger: false });
  const port = await listening(app);
  try {
    for (const [path, framing] of [
      ['/text', /\r\ncontent-length: 5\r\n/i],
      ['/declared', /\r\ncontent-length: 5\r\n/i],
      ['/streamed', /\r\ntransfer-encoding: chunked\r\n/i],
    ] as const) {
      const answer = await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.equal(answer.status, 200, path);
      assert.match(`${answer.rawHead}\r\n`, framing, path);
      const both = /\r\ntransfer-encoding:/i.test(answer.rawHead) && /\r\ncontent-length:/i.test(answer.rawHead);
      assert.equal(both, false, `${path}: ${answer.rawHead}`);
      assert.equal(answer.body, 'hello', path);
    }
  } finally {
    await app.close();
  }
});
