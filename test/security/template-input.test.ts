import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeApp } from './app.ts';
import { listening, rawExchange } from './harness.ts';

// A 14-byte JSON body used to turn every template page into a 500: the JSON object mapped to a
// handler argument had a bare null prototype, which no template engine can print.

for (const page of ['page', 'npage', 'hpage']) {
  test(`/${page}: a JSON object mapped to an argument is printed, not a 500`, async () => {
    const app = makeApp();
    const port = await listening(app);
    try {
      const body = '{"title":{"b":1}}';
      const res = await app.inject({ method: 'POST', url: `/${page}`, headers: { 'content-type': 'application/json' }, payload: body });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /<h1>\[object Object\]<\/h1>/);
      const raw = await rawExchange(
        port,
        `POST /${page} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      assert.equal(raw.status, 200);
      const list = await app.inject({ method: 'POST', url: `/${page}`, headers: { 'content-type': 'application/json' }, payload: '{"title":[{"b":1},"x"]}' });
      assert.match(list.body, /<h1>\[object Object\],x<\/h1>/);
    } finally {
      await app.close();
    }
  });
}
