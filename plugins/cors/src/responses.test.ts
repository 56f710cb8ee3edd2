import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { corsApp, corsHeaders } from './fixtures/cors-app.ts';

const APP = 'https://app.example.com';
const EVIL = 'https://evil.example';

test('an allowed origin: every response carries the CORS headers (200, abort 403, 500, 404)', async () => {
  const { app } = await corsApp({ origin: [APP], credentials: true, exposedHeaders: ['X-Total-Count', 'ETag'] });
  const expected = {
    'access-control-allow-origin': APP,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'X-Total-Count,ETag',
    vary: 'Origin',
  };
  for (const [url, status] of [['/api/books', 200], ['/api/error', 403], ['/api/crash', 500], ['/nowhere', 404]] as const) {
    const res = await app.inject({ url, headers: { origin: APP } });
    assert.equal(res.statusCode, status, url);
    assert.deepEqual(corsHeaders(res.headers), expected, url);
  }
  await app.close();
});

test('a disallowed origin, or none: no CORS header, but Vary: Origin (the answer depends on it)', async () => {
  const { app, spy } = await corsApp({ origin: /^https:\/\/[a-z]+\.example\.com$/, credentials: true, exposedHeaders: 'X-Total-Count' });
  for (const headers of [{ origin: EVIL }, {}, { origin: 'null' }]) {
    const res = await app.inject({ url: '/api/books', headers });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(corsHeaders(res.headers), { vary: 'Origin' }, JSON.stringify(headers));
  }
  // The handler still ran: CORS is enforced by the browser, which gets no permission to read.
  assert.equal(spy.calls.length, 3);
  const allowed = await app.inject({ url: '/api/books', headers: { origin: 'https://shop.example.com' } });
  assert.equal(allowed.headers['access-control-allow-origin'], 'https://shop.example.com');
  await app.close();
});

test("origin '*': '*' on every response, with or without Origin, and no Vary", async () => {
  const { app } = await corsApp({ origin: '*', exposedHeaders: ['X-Total-Count'] });
  for (const headers of [{ origin: EVIL }, {}]) {
    for (const url of ['/api/books', '/nowhere']) {
      const res = await app.inject({ url, headers });
      assert.deepEqual(corsHeaders(res.headers), { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'X-Total-Count' }, url);
    }
  }
  await app.close();
});

test("Vary: Origin is merged into the handler's Vary, never twice", async () => {
  const { app } = await corsApp({ origin: APP });
  const res = await app.inject({ url: '/api/vary', headers: { origin: APP } });
  assert.equal(res.headers['vary'], 'accept-encoding, Accept, Origin');
  await app.close();
});

test('a handler that answered CORS itself keeps its answer', async () => {
  const { app } = await corsApp({ origin: APP, credentials: true });
  const res = await app.inject({ url: '/api/own', headers: { origin: APP } });
  assert.deepEqual(corsHeaders(res.headers), { 'access-control-allow-origin': 'https://own.example', vary: 'Origin' });
  await app.close();
});

test('origin functions: sync or async, given the request; only `true` allows; text that is not an origin is never reflected', async () => {
  const { app } = await corsApp({
    origin: [/.*/],
  });
  for (const origin of ['https://a.example/path', 'javascript:alert(1)', 'https://a.example, https://b.example']) {
    const res = await app.inject({ url: '/api/books', headers: { origin } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(corsHeaders(res.headers), { vary: 'Origin' }, origin);
  }
  await app.close();

  const seen: string[] = [];
  const sync = await corsApp({
    origin: (origin, request) => {
      seen.push(`${request.path} ${origin}`);
      return origin === APP;
    },
  });
  assert.equal((await sync.app.inject({ url: '/api/books', headers: { origin: APP } })).headers['access-control-allow-origin'], APP);
  assert.equal((await sync.app.inject({ url: '/api/books', headers: { origin: EVIL } })).headers['access-control-allow-origin'], undefined);
  // Asked only when an Origin is sent.
  await sync.app.inject({ url: '/api/books' });
  assert.deepEqual(seen, [`/api/books ${APP}`, `/api/books ${EVIL}`]);
  await sync.app.close();

  const truthy = await corsApp({ origin: (() => 'yes') as never });
  assert.equal((await truthy.app.inject({ url: '/api/books', headers: { origin: APP } })).headers['access-control-allow-origin'], undefined);
  await truthy.app.close();

  const later = await corsApp({ origin: async (origin) => origin === APP });
  const res = await later.app.inject({ url: '/nowhere', headers: { origin: APP } });
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers['access-control-allow-origin'], APP);
  await later.app.close();
});

test('a RegExp with the g flag allows the same origin every time', async () => {
  const { app } = await corsApp({ origin: /example\.com$/g });
  for (let i = 0; i < 3; i++) {
    assert.equal((await app.inject({ url: '/api/books', headers: { origin: APP } })).headers['access-control-allow-origin'], APP);
  }
  await app.close();
});

test('over a real socket: a preflight and the request it allows', async () => {
  const { app, spy } = await corsApp({ origin: APP, credentials: true, maxAge: 60 });
  const port = Number(new URL((await app.listen({ port: 0, host: '127.0.0.1' })).url).port);
  try {
    const pre = await send(port, 'OPTIONS', { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    assert.equal(pre.status, 204);
    assert.deepEqual(corsHeaders(pre.headers), {
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '60',
      vary: 'Origin, Access-Control-Request-Headers',
    });
    assert.deepEqual(spy.calls, []);
    const res = await send(port, 'GET', { origin: APP });
    assert.equal(res.status, 200);
    assert.equal(res.body, '{"path":"/api/books","method":"GET"}');
    assert.deepEqual(corsHeaders(res.headers), { 'access-control-allow-origin': APP, 'access-control-allow-credentials': 'true', vary: 'Origin' });
  } finally {
    await app.close();
  }
});

function send(port: number, method: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: '/api/books', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
