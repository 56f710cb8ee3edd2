// The showcase with the production plugins on: CORS for its JSON API only, helmet's security
// headers on every answer, forms from other sites refused (CSRF), the admin login's rate limit (5 a minute per client, then 429),
// /healthz and /readyz (readiness checks the database), /openapi.json and /docs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kernel } from '@hickory/core';
import { createSandbox } from '@hickory/sandbox/app';
import { corsOrigins, isJsonApiPath, showcasePlugins } from '@hickory/sandbox/production';
import { Library } from '@hickory/sandbox/store/library';
import { createApp, expose } from '@hickory/app';

const ALLOWED = 'http://localhost:3000';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the showcase uses the production plugins', () => {
  let app: Kernel;
  before(async () => {
    app = await createSandbox({ logger: false });
  });
  after(() => app.close());

  test('CORS: a preflight to the JSON API from an allowed origin is answered 204 before routing; a GET gets the allow header', async () => {
    const preflight = await app.inject({ method: 'OPTIONS', url: '/books/', headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], ALLOWED);
    assert.equal(preflight.headers['access-control-allow-methods'], 'GET,HEAD,PUT,PATCH,POST,DELETE');
    assert.equal(preflight.headers['access-control-allow-headers'], 'content-type');
    assert.equal(preflight.headers['access-control-max-age'], '600');
    assert.equal(preflight.body, '');

    const list = await app.inject({ url: '/books.json', headers: { origin: ALLOWED } });
    assert.equal(list.statusCode, 200);
    assert.equal(list.headers['access-control-allow-origin'], ALLOWED);
    assert.match(String(list.headers.vary), /\bOrigin\b/);
    // An error of the API too.
    const missing = await app.inject({ url: '/books/999999.json', headers: { origin: ALLOWED } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['access-control-allow-origin'], ALLOWED);
  });

  test('CORS: another origin, or an HTML page of the showcase, gets no CORS headers', async () => {
    const other = await app.inject({ url: '/books.json', headers: { origin: 'https://evil.example' } });
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    const otherPreflight = await app.inject({ method: 'OPTIONS', url: '/books/', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    assert.equal(otherPreflight.headers['access-control-allow-origin'], undefined);
    assert.equal(otherPreflight.headers['access-control-allow-methods'], undefined);
    for (const url of ['/admin/', '/library/', '/files/']) {
      const page = await app.inject({ url, headers: { origin: ALLOWED } });
      assert.equal(page.headers['access-control-allow-origin'], undefined, url);
    }
  });

  test('CORS origins: HICKORY_CORS_ORIGINS, or the documented default; a path instead of an origin is refused', () => {
    assert.deepEqual(corsOrigins({}), ['http://localhost:3000', 'http://127.0.0.1:3000']);
    assert.deepEqual(corsOrigins({ HICKORY_CORS_ORIGINS: ' https://app.example.com, http://127.0.0.1:5173 ' }), ['https://app.example.com', 'http://127.0.0.1:5173']);
    assert.throws(() => corsOrigins({ HICKORY_CORS_ORIGINS: 'https://app.example.com/api' }), { message: 'HICKORY_CORS_ORIGINS must be a comma-separated list of origins such as https://app.example.com (got "https://app.example.com/api").' });
    assert.throws(() => corsOrigins({ HICKORY_CORS_ORIGINS: 'app.example.com' }), /got "app\.example\.com"/);
    assert.deepEqual(['/books/', '/books.json', '/books/3/checkout', '/authors/1/books/', '/store/1/', '/items/', '/catalog/books/', '/openapi.json'].filter((p) => !isJsonApiPath(p)), []);
    assert.deepEqual(['/', '/bookshelf', '/admin/', '/library/', '/files/', '/catalog/', '/docs'].filter(isJsonApiPath), []);
  });

  test('security headers on pages, JSON, static files and error pages', async () => {
    for (const url of ['/', '/books/', '/books.json', '/style.css', '/no/such/page', '/status/broken']) {
      const res = await app.inject(url);
      assert.match(String(res.headers['content-security-policy']), /^default-src 'self';.*script-src 'self';/, url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN', url);
      assert.equal(res.headers['referrer-policy'], 'no-referrer', url);
      // Plain http: no HSTS.
      assert.equal(res.headers['strict-transport-security'], undefined, url);
    }
  });

  test('the admin login: 5 attempts a minute per client, the 6th is 429 with Retry-After (a right password too)', async () => {
    const limited = await createSandbox({ logger: false });
    try {
      for (let attempt = 1; attempt <= 5; attempt++) {
        const res = await limited.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=wrong' });
        assert.equal(res.statusCode, 401, `attempt ${attempt}`);
        assert.equal(res.headers['ratelimit-policy'], '"login";q=5;w=60');
        assert.equal(res.headers.ratelimit, `"login";r=${5 - attempt};t=60`);
      }
      const sixth = await limited.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=hickory' });
      assert.equal(sixth.statusCode, 429);
      assert.equal(sixth.headers['retry-after'], '60');
      assert.equal(sixth.headers['set-cookie'], undefined);
      // Another client address is counted on its own; the login form itself (GET) is not limited.
      const other = await limited.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=hickory', remoteAddress: '127.0.0.2' });
      assert.equal(other.statusCode, 302);
      assert.equal((await limited.inject('/admin/login')).statusCode, 200);
    } finally {
      await limited.close();
    }
  });

  test('errors a visitor meets are pages of the site (headers kept); a client asking for JSON gets JSON', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['PATCH', '/books/', 405, '405 · Method Not Allowed'],
      ['GET', '/status/teapot', 418, '418 · I&#39;m a Teapot'],
      ['POST', '/books/', 400, '400 · Bad Request'],
      ['GET', '/no/such/page', 404, '404 · Not Found'],
      ['GET', '/status/broken', 500, '500 · Internal Server Error'],
    ];
    for (const [method, url, status, heading] of cases) {
      // What a browser sends: HTML first, anything else after.
      const res = await app.inject({ method, url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...(method === 'POST' ? form : {}) }, payload: method === 'POST' ? 'name=' : undefined });
      assert.equal(res.statusCode, status, url);
      assert.match(res.body, new RegExp(`<link rel="stylesheet" href="/style\\.css">[\\s\\S]*<header class="masthead">[\\s\\S]*<h1>${heading}</h1>`), url);
    }
    assert.equal((await app.inject({ method: 'PATCH', url: '/books/', headers: { accept: 'text/html' } })).headers.allow, 'GET, HEAD, POST, OPTIONS');
    const json = await app.inject({ method: 'PATCH', url: '/books/', headers: { accept: 'application/json' } });
    assert.equal(json.statusCode, 405);
    assert.deepEqual(json.json(), { code: 405, title: 'Method Not Allowed', description: 'PATCH is not allowed here; allowed: GET, HEAD, POST, OPTIONS.' });
  });

  test('CSRF: a form posted from another site is refused 403 before routing and keeps nothing; the site\'s own form is served', async () => {
    const crossSite = await app.inject({ method: 'POST', url: '/library/', headers: { ...form, 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' }, payload: 'name=Forged' });
    assert.equal(crossSite.statusCode, 403);
    const noFetchMetadata = await app.inject({ method: 'POST', url: '/library/', headers: { ...form, host: 'localhost', origin: 'http://evil.example' }, payload: 'name=Forged' });
    assert.equal(noFetchMetadata.statusCode, 403);
    const own = await app.inject({ method: 'POST', url: '/library/', headers: { ...form, 'sec-fetch-site': 'same-origin' }, payload: 'name=Kept' });
    assert.equal(own.statusCode, 302);
    const page = await app.inject('/library/');
    assert.match(page.body, /Kept/);
    assert.doesNotMatch(page.body, /Forged/);
  });

  test('/healthz and /readyz (the database checked); /openapi.json and /docs', async () => {
    const live = await app.inject('/healthz');
    assert.equal(live.statusCode, 200);
    assert.deepEqual(live.json(), { status: 'ok' });
    const ready = await app.inject('/readyz');
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ok', checks: { database: { status: 'ok' } } });
    const doc = await app.inject('/openapi.json');
    assert.equal(doc.statusCode, 200);
    assert.deepEqual(doc.json().info, { title: 'Hickory sandbox', version: '0.1.0' });
    assert.ok(doc.json().paths['/books/'], 'the REST books are documented');
    const docs = await app.inject('/docs');
    assert.equal(docs.statusCode, 200);
    assert.match(docs.headers['content-type'] as string, /^text\/html/);
  });

  test('/readyz answers 503 naming the database when it cannot be read', async () => {
    // A library whose reads fail (as a PostgreSQL server gone away since the start would): the rest
    // of the list as the showcase has it. It opened fine, so the session store made its table at ready().
    const opened = new Library(':memory:');
    const down = { open: () => opened.open(), close: () => opened.close(), read: () => Promise.reject(new Error('connection refused')) } as unknown as Library;
    const broken = await createApp({ root: new Empty(), logger: false, plugins: showcasePlugins(down) }).ready();
    try {
      const ready = await broken.inject('/readyz');
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { status: 'error', failing: ['database'], checks: { database: { status: 'error', error: 'connection refused' } } });
      assert.equal((await broken.inject('/healthz')).statusCode, 200);
    } finally {
      await broken.close();
    }
  });
});

class Empty {
  @expose() index() {
    return 'empty';
  }
}
