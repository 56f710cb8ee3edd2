import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { assertNothingUncaught, listening, rawExchange, withTimeout } from './harness.ts';

// Bodies on GET, HEAD, OPTIONS and TRACE are not read and never fill handler arguments (a "fat
// GET" is input that URL-keyed caches do not key on, and it made every body parser reachable
// through GET /), unless the handler asks for its body with expose({ body: true }).

class Root {
  @expose() index() {
    return 'ok';
  }
  @expose('json') echo(kwargs: Record<string, unknown>) {
    return Object.keys(kwargs);
  }
  @expose({ template: 'json', body: true }) search(kwargs: Record<string, unknown>) {
    return Object.keys(kwargs);
  }
}

const JSON_BODY = '{"a":1,"b":2}';

function request(method: string, path: string, body: string, type = 'application/json', keepAlive = false): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: ${keepAlive ? 'keep-alive' : 'close'}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

test('a body on GET, OPTIONS or TRACE fills no argument; the same body on POST and DELETE does', async () => {
  const app = createApp({ root: new Root(), logger: false });
  const port = await listening(app);
  try {
    for (const method of ['GET', 'OPTIONS', 'TRACE'] as const) {
      const injected = await app.inject({ method: method as 'GET', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON_BODY });
      assert.equal(injected.statusCode, 200, method);
      assert.equal(injected.body, '[]', method);
      const raw = await rawExchange(port, request(method, '/echo', JSON_BODY));
      assert.equal(raw.body, '[]', `${method} over a socket`);
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON_BODY });
      assert.equal(res.body, '["a","b"]', method);
    }
    const head = await app.inject({ method: 'HEAD', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"broken' });
    assert.equal(head.statusCode, 200);
    assertNothingUncaught('bodyless methods');
  } finally {
    await app.close();
  }
});

test('a handler that asks for its body gets it on GET too: expose({ body: true })', async () => {
  const app = createApp({ root: new Root(), logger: false });
  try {
    const res = await app.inject({ method: 'GET', url: '/search', headers: { 'content-type': 'application/json' }, payload: JSON_BODY });
    assert.equal(res.body, '["a","b"]');
  } finally {
    await app.close();
  }
});

test('bad or large bodies on GET reach no parser: no 400, no 413, and keep-alive goes on', async () => {
  const app = createApp({ root: new Root(), logger: false, body_limit: 1024 });
  const port = await listening(app);
  try {
    const bad: Array<[string, string]> = [
      ['{"__proto__":{"x":1}}', 'application/json'],
      ['not json at all', 'application/json'],
      ['a=%zz', 'application/x-www-form-urlencoded'],
      ['--b\r\nContent-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=shift_jis\r\n\r\nx\r\n--b--\r\n', 'multipart/form-data; boundary=b'],
      ['x'.repeat(64 * 1024), 'application/json'],
    ];
    for (const [body, type] of bad) {
      const res = await app.inject({ method: 'GET', url: '/echo', headers: { 'content-type': type }, payload: body });
      assert.equal(res.statusCode, 200, `${type}: ${body.slice(0, 30)}`);
      assert.equal(res.body, '[]');
    }
    // Two requests on one connection: the ignored body of the first is not read as the second.
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const closed = new Promise((done) => socket.on('close', done));
    const smuggled = 'GET /index HTTP/1.1\r\nHost: x\r\n\r\n';
    socket.write(request('GET', '/echo', 'x'.repeat(100 * 1024 - smuggled.length) + smuggled, 'text/plain', true) + 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await withTimeout(closed, 'two requests on one connection');
    const statuses = text.match(/HTTP\/1\.1 \d{3}/g);
    assert.deepEqual(statuses, ['HTTP/1.1 200', 'HTTP/1.1 200']);
    assert.match(text, /\r\n\r\n\[\][\s\S]*\r\n\r\nok$/);
    assertNothingUncaught('large GET bodies');
  } finally {
    await app.close();
  }
});
