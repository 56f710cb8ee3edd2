// @hickory/cors in Chromium: a page served on one port of 127.0.0.1 calls a JSON API on another
// port (another origin), with and without credentials, and a page on a third, disallowed origin
// is refused by the browser itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { corsPlugin, createApp, expose, request, response, type App, type CorsOptions } from '@hickory/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH, skipReason } from './harness.ts';

// What the API's handlers saw, in order: proves which requests reached a handler.
const handled: string[] = [];

class ApiController {
  @expose('json') books() {
    handled.push(`${request.method} /api/books`);
    response.headers['X-Total-Count'] = '1';
    if (request.method === 'POST') return { created: request.json };
    return [{ id: 1, title: 'Dune' }];
  }

  // Who the caller is, by its cookie: a credentialed request sends it, another does not.
  @expose('json') me() {
    handled.push(`${request.method} /api/me`);
    return { sid: request.cookies['sid'] ?? null };
  }
}

class ApiRoot {
  api = new ApiController();
}

// The page that calls the API: any path answers it, so each origin serves the same one.
class PageRoot {
  @expose() index() {
    response.content_type = 'text/html';
    return '<!doctype html><title>client</title><p>client</p>';
  }
}

async function serve(app: App): Promise<{ app: App; origin: string }> {
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, origin: url.replace(/\/$/, '') };
}

function api(options: CorsOptions): Promise<{ app: App; origin: string }> {
  return serve(createApp({ root: new ApiRoot(), logger: false, plugins: [[corsPlugin, options]] }));
}

// Runs `fetch` in the page (so the browser applies CORS) and says what the script could read.
async function call(page: Page, url: string, init: { method?: string; credentials?: 'include' | 'omit'; json?: unknown } = {}): Promise<{ ok: true; status: number; body: unknown; total: string | null } | { ok: false; error: string }> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, {
          method: init.method ?? 'GET',
          credentials: init.credentials ?? 'omit',
          ...(init.json === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(init.json) }),
        });
        return { ok: true as const, status: res.status, body: (await res.json()) as unknown, total: res.headers.get('X-Total-Count') };
      } catch (error) {
        return { ok: false as const, error: String(error) };
      }
    },
    { url, init },
  );
}

describe('CORS in Chromium: a page on one origin calling a JSON API on another', { skip: skipReason() }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let other: Page;
  let client: { app: App; origin: string };
  let stranger: { app: App; origin: string };
  let withCredentials: { app: App; origin: string };
  let anyone: { app: App; origin: string };

  before(async () => {
    client = await serve(createApp({ root: new PageRoot(), logger: false }));
    stranger = await serve(createApp({ root: new PageRoot(), logger: false }));
    withCredentials = await api({ origin: [client.origin], credentials: true, exposedHeaders: ['X-Total-Count'] });
    anyone = await api({ origin: '*' });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 20_000 });
    context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    // The API's session cookie: a cookie belongs to a host, not a port, so both origins are one site.
    await context.addCookies([{ name: 'sid', value: 'abc123', url: withCredentials.origin }]);
    page = await context.newPage();
    await page.goto(`${client.origin}/`);
    other = await context.newPage();
    await other.goto(`${stranger.origin}/`);
  });

  after(async () => {
    await browser?.close();
    for (const served of [client, stranger, withCredentials, anyone]) await served?.app.close();
  });

  test('an allowed origin reads the JSON and the exposed header; with credentials the cookie goes along', async () => {
    handled.length = 0;
    const plain = await call(page, `${withCredentials.origin}/api/books`);
    assert.deepEqual(plain, { ok: true, status: 200, body: [{ id: 1, title: 'Dune' }], total: '1' });
    const omitted = await call(page, `${withCredentials.origin}/api/me`);
    assert.deepEqual(omitted, { ok: true, status: 200, body: { sid: null }, total: null });
    const included = await call(page, `${withCredentials.origin}/api/me`, { credentials: 'include' });
    assert.deepEqual(included, { ok: true, status: 200, body: { sid: 'abc123' }, total: null });
    assert.deepEqual(handled, ['GET /api/books', 'GET /api/me', 'GET /api/me']);
  });

  test('a POST of JSON is preflighted: the preflight never reaches a handler, the POST does', async () => {
    handled.length = 0;
    const created = await call(page, `${withCredentials.origin}/api/books`, { method: 'POST', credentials: 'include', json: { title: 'Emma' } });
    assert.deepEqual(created, { ok: true, status: 200, body: { created: { title: 'Emma' } }, total: '1' });
    assert.deepEqual(handled, ['POST /api/books']);
  });

  test('a disallowed origin: the browser refuses the response to the script, and its preflight stops the POST', async () => {
    handled.length = 0;
    const read = await call(other, `${withCredentials.origin}/api/books`);
    assert.deepEqual(read, { ok: false, error: 'TypeError: Failed to fetch' });
    // A simple GET still reaches the server (CORS guards reading, not sending)…
    assert.deepEqual(handled, ['GET /api/books']);
    // …but a request that needs a preflight is never sent: the preflight got no allow headers.
    const posted = await call(other, `${withCredentials.origin}/api/books`, { method: 'POST', json: { title: 'Emma' } });
    assert.deepEqual(posted, { ok: false, error: 'TypeError: Failed to fetch' });
    assert.deepEqual(handled, ['GET /api/books']);
  });

  test("origin '*': any page reads the API without credentials; with credentials the browser refuses '*'", async () => {
    for (const from of [page, other]) {
      const res = await call(from, `${anyone.origin}/api/books`);
      assert.deepEqual(res, { ok: true, status: 200, body: [{ id: 1, title: 'Dune' }], total: null });
    }
    const credentialed = await call(page, `${anyone.origin}/api/me`, { credentials: 'include' });
    assert.deepEqual(credentialed, { ok: false, error: 'TypeError: Failed to fetch' });
  });
});
