import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { assertNothingUncaught, exchangeUntilClosed, listening } from './harness.ts';

// Issue #22, "bodies on GET, HEAD and OPTIONS fill handler arguments": what bodyless-methods.test.ts
// leaves open. DELETE keeps its body when the request frames one (as Fastify and Express), a
// handler's own request.load() cannot reach a body the kernel ignored, and handlers attached with
// when() for OPTIONS or TRACE opt in as exposed methods do. Every case runs on one keep-alive
// connection with a pipelined request after it, so an unread body is never parsed as a request.

class Root {
  @expose() index() {
    return 'ok';
  }
  @expose('json') remove(kwargs: Record<string, unknown>) {
    return Object.keys(kwargs);
  }
  @expose('json') async loads() {
    await request.load();
    return { body: request.body.length, json: request.json ?? null, post: Object.keys(request.POST) };
  }
}

const LAST = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';

function keepAlive(method: string, path: string, body?: string, type = 'application/json'): string {
  const length = body === undefined ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\n${length}\r\n${body ?? ''}`;
}

// The responses on one connection, each framed by its Content-Length: `status body`.
function responses(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    assert.notEqual(end, -1, `no response head in ${JSON.stringify(text.slice(at))}`);
    const head = text.slice(at, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    out.push(`${head.slice(9, 12)} ${text.slice(end + 4, end + 4 + length)}`);
    at = end + 4 + length;
  }
  return out;
}

test('DELETE: a body it frames fills arguments; a JSON Content-Type with no body framed is no error', async () => {
  const app = createApp({ root: new Root(), logger: false });
  const port = await listening(app);
  try {
    const { text } = await exchangeUntilClosed(port, keepAlive('DELETE', '/remove') + keepAlive('DELETE', '/remove', '{"a":1}') + LAST);
    assert.deepEqual(responses(text), ['200 []', '200 ["a"]', '200 ok']);
    const injected = await app.inject({ method: 'DELETE', url: '/remove', headers: { 'content-type': 'application/json' } });
    assert.equal(injected.statusCode, 200);
    // Content-Length: 0 frames an empty body, which JSON cannot be (as Fastify answers).
    const framed = await app.inject({ method: 'DELETE', url: '/remove', headers: { 'content-type': 'application/json', 'content-length': '0' } });
    assert.equal(framed.statusCode, 400);
    assertNothingUncaught('DELETE bodies');
  } finally {
    await app.close();
  }
});

test("a handler's own request.load() on GET reads nothing of the ignored body", async () => {
  const app = createApp({ root: new Root(), logger: false });
  const port = await listening(app);
  try {
    const { text } = await exchangeUntilClosed(port, keepAlive('GET', '/loads', '{"a":1}') + LAST);
    assert.deepEqual(responses(text), ['200 {"body":0,"json":null,"post":[]}', '200 ok']);
    assertNothingUncaught('load() on GET');
  } finally {
    await app.close();
  }
});

test('when(name, { method, body: true }) opts an OPTIONS or TRACE handler in; without it their bodies fill nothing', async () => {
  // Defined here: before `body` was a when() option, the class itself threw.
  class Api {
    @expose() index() {
      return 'ok';
    }
    @expose({ generic: true, template: 'json' }) probe() {
      return 'get';
    }
    @when('probe', { method: 'OPTIONS', template: 'json', body: true }) probe_options(kwargs: Record<string, unknown>) {
      return Object.keys(kwargs);
    }
    @when('probe', { method: 'TRACE', template: 'json' }) probe_trace(kwargs: Record<string, unknown>) {
      return Object.keys(kwargs);
    }
  }
  const app = createApp({ root: new Api(), logger: false });
  const port = await listening(app);
  try {
    const { text } = await exchangeUntilClosed(port, keepAlive('OPTIONS', '/probe', '{"a":1}') + keepAlive('TRACE', '/probe', '{"a":1}') + LAST);
    assert.deepEqual(responses(text), ['200 ["a"]', '200 []', '200 ok']);
    assert.throws(() => when('probe', { method: 'POST', body: 'yes' as unknown as boolean }), { code: 'HICKORY_ERR_DISPATCH_WHEN_ARGS', message: /`body` must be true, false, or a schema of the body/ });
    assertNothingUncaught('when body');
  } finally {
    await app.close();
  }
});
