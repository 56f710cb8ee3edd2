import assert from 'node:assert/strict';
import { test } from 'node:test';
import { corsApp, corsHeaders } from './fixtures/cors-app.ts';

const APP = 'https://app.example.com';
const EVIL = 'https://evil.example';

function preflight(origin: string, headers: Record<string, string> = {}) {
  return { method: 'OPTIONS' as const, url: '/api/books', headers: { origin, 'access-control-request-method': 'PUT', ...headers } };
}

test('a preflight from an allowed origin: 204 before routing (no handler runs), the allow headers, the request headers reflected', async () => {
  const { app, spy } = await corsApp({ origin: [APP, 'https://other.example.com'] });
  const res = await app.inject(preflight(APP, { 'access-control-request-headers': 'content-type, x-trace' }));
  assert.equal(res.statusCode, 204);
  assert.equal(res.body, '');
  assert.deepEqual(corsHeaders(res.headers), {
    'access-control-allow-origin': APP,
    'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
    'access-control-allow-headers': 'content-type, x-trace',
    vary: 'Origin, Access-Control-Request-Headers',
  });
  assert.deepEqual(spy.calls, []);
  // An OPTIONS that is not a preflight (no Access-Control-Request-Method) is routed as usual.
  const plain = await app.inject({ method: 'OPTIONS', url: '/api/books', headers: { origin: APP } });
  assert.equal(plain.statusCode, 200);
  assert.deepEqual(spy.calls, ['OPTIONS /api/books']);
  await app.close();
});

test('a preflight from a disallowed origin: 204 with no allow header at all, Vary: Origin, no handler', async () => {
  const { app, spy } = await corsApp({ origin: APP, credentials: true, maxAge: 600, allowedHeaders: ['Content-Type'] });
  const res = await app.inject(preflight(EVIL, { 'access-control-request-headers': 'content-type' }));
  assert.equal(res.statusCode, 204);
  assert.deepEqual(corsHeaders(res.headers), { vary: 'Origin' });
  assert.deepEqual(spy.calls, []);
  await app.close();
});

test('a preflight with every option: credentials, methods, allowed headers (not reflected), max age', async () => {
  const { app } = await corsApp({ origin: APP, credentials: true, methods: ['GET', 'PUT'], allowedHeaders: 'Content-Type, Authorization', maxAge: 600 });
  const res = await app.inject(preflight(APP, { 'access-control-request-headers': 'x-anything' }));
  assert.equal(res.statusCode, 204);
  assert.deepEqual(corsHeaders(res.headers), {
    'access-control-allow-origin': APP,
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'GET,PUT',
    'access-control-allow-headers': 'Content-Type,Authorization',
    'access-control-max-age': '600',
    vary: 'Origin',
  });
  await app.close();
});

test("origin '*': a preflight answers '*' and depends on no origin (Vary only for the reflected headers)", async () => {
  const { app } = await corsApp({ origin: '*' });
  const res = await app.inject(preflight(EVIL));
  assert.equal(res.statusCode, 204);
  assert.deepEqual(corsHeaders(res.headers), {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
    vary: 'Access-Control-Request-Headers',
  });
  await app.close();
});

test('preflights are answered before the other plugins\' beforeRoute taps (an authentication check would refuse them)', async () => {
  const { app, spy } = await corsApp({ origin: APP }, { auth: true });
  const res = await app.inject(preflight(APP));
  assert.equal(res.statusCode, 204);
  assert.equal(res.headers['access-control-allow-origin'], APP);
  // The actual request is refused by the check, and the browser can read why (CORS headers on the 401).
  const refused = await app.inject({ url: '/api/books', headers: { origin: APP } });
  assert.equal(refused.statusCode, 401);
  assert.equal(refused.headers['access-control-allow-origin'], APP);
  assert.deepEqual(spy.calls, []);
  await app.close();
});

test('a malformed preflight is a 400 naming the header, never a 500 nor a reflected header', async () => {
  const { app, spy } = await corsApp({ origin: APP });
  const badMethod = await app.inject(preflight(APP, { 'access-control-request-method': 'PUT DELETE' }));
  assert.equal(badMethod.statusCode, 400);
  assert.match(badMethod.body, /Access-Control-Request-Method must be one method name/);
  assert.equal(badMethod.headers['access-control-allow-origin'], undefined);
  const badHeaders = await app.inject(preflight(APP, { 'access-control-request-headers': 'x-a; x-b' }));
  assert.equal(badHeaders.statusCode, 400);
  assert.match(badHeaders.body, /Access-Control-Request-Headers must be a comma-separated list of header names/);
  assert.equal(badHeaders.headers['access-control-allow-headers'], undefined);
  assert.deepEqual(spy.calls, []);
  await app.close();
});

test('an async origin function decides the preflight too; what it throws is a logged 500', async () => {
  const asked: string[] = [];
  const { app, spy } = await corsApp({
    origin: async (origin, request) => {
      asked.push(`${request.method} ${origin}`);
      if (origin === 'https://broken.example') throw new Error('directory down');
      return origin.endsWith('.example.com');
    },
  });
  const yes = await app.inject(preflight(APP));
  assert.equal(yes.statusCode, 204);
  assert.equal(yes.headers['access-control-allow-origin'], APP);
  const no = await app.inject(preflight(EVIL));
  assert.equal(no.statusCode, 204);
  assert.deepEqual(corsHeaders(no.headers), { vary: 'Origin' });
  const broken = await app.inject(preflight('https://broken.example'));
  assert.equal(broken.statusCode, 500);
  assert.equal(broken.headers['access-control-allow-origin'], undefined);
  assert.deepEqual(asked, [`OPTIONS ${APP}`, `OPTIONS ${EVIL}`, 'OPTIONS https://broken.example']);
  assert.deepEqual(spy.calls, []);
  await app.close();
});
