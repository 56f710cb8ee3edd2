// The interactive page of openapiPlugin in Debian's Chromium: it loads from the app alone (no
// request leaves 127.0.0.1: Swagger UI comes from node_modules, its validator badge is off), shows
// the operations of a small app, and runs one of them ("Try it out") against the app; and the
// showcase's page, which shows every one of its operations (issue #38: it showed 10).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createApp, expose, openapiPlugin, type Kernel } from '@hickory/app';
import { BrowserSession, skipReason } from './harness.ts';

const CHROMIUM_PATH = '/usr/bin/chromium';
// Where the page is saved as a PNG (gitignored), as the other browser suites do.
const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

class Books {
  @expose('json') index() { return [{ id: '1', name: 'Dune' }]; }
  @expose('json') show(id: string) { return { id, name: `Book ${id}` }; }
}

class Root {
  books = new Books();
  @expose() index() { return 'home'; }
}

describe('the OpenAPI page, in Chromium', { skip: skipReason() }, () => {
  let app: Kernel;
  let browser: Browser;
  let page: Page;
  let base: string;
  const requested: string[] = [];

  before(async () => {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH} and CI is set: install Debian's "chromium" package.`);
    app = createApp({ root: new Root(), logger: false, plugins: [[openapiPlugin, { title: 'Books API', version: '1.0.0' }]] });
    base = (await app.listen({ port: 0, host: '127.0.0.1' })).url.replace(/\/$/, '');
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 20_000 });
    const context = await browser.newContext({ viewport: { width: 1024, height: 720 } });
    context.setDefaultTimeout(10_000);
    // Every request the page makes, wherever it goes (data: URLs are no request).
    context.on('request', (request) => {
      if (!request.url().startsWith('data:')) requested.push(request.url());
    });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('the page loads from the app alone and lists the operations of the app', { timeout: 30_000 }, async () => {
    const response = await page.goto(`${base}/docs`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200);
    assert.equal(await page.title(), 'Books API');
    await page.waitForSelector('.opblock-summary-path');
    assert.match((await page.textContent('.info .title')) ?? '', /Books API/);
    const operations = await page.$$eval('.opblock-summary', (blocks) =>
      blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent ?? ''} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`),
    );
    for (const expected of ['GET /books/', 'GET /books/show/{id}', 'POST /books/show', 'GET /']) assert.ok(operations.includes(expected), `${expected} in ${operations.join(', ')}`);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}openapi-01-docs.png`, fullPage: true });
    const origin = new URL(base).origin;
    assert.deepEqual(requested.filter((url) => new URL(url).origin !== origin), [], 'requests that left the app');
    for (const path of ['/docs', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/initializer.js', '/openapi.json']) {
      assert.ok(requested.includes(`${base}${path}`), `${path} was loaded: ${requested.join(', ')}`);
    }
  });

  test('"Try it out" runs an operation against the app and shows its answer', { timeout: 30_000 }, async () => {
    const block = page.locator('.opblock-get', { has: page.locator('[data-path="/books/show/{id}"]') });
    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
    await block.locator('input[placeholder="id"]').fill('42');
    await block.locator('button.execute').click();
    const body = block.locator('.responses-wrapper .live-responses-table .response-col_description pre.microlight').first();
    await body.waitFor();
    assert.deepEqual(JSON.parse((await body.textContent()) ?? ''), { id: '42', name: 'Book 42' });
    await page.screenshot({ path: `${SCREENSHOT_DIR}openapi-02-try-it-out.png`, fullPage: true });
    assert.ok(requested.includes(`${base}/books/show/42`));
    assert.deepEqual(requested.filter((url) => new URL(url).origin !== new URL(base).origin), []);
  });
});

describe("the showcase's OpenAPI page, in Chromium", { skip: skipReason() }, () => {
  let session: BrowserSession;

  before(async () => {
    session = await BrowserSession.open('openapi-showcase');
  });

  after(async () => {
    await session?.close();
  });

  test('one operation block per operation of /openapi.json, in the page at once, and no console error', { timeout: 30_000 }, async () => {
    const page = await session.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const doc = (await (await session.app.inject('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    // Swagger UI 5.32+ mounts only the operations in view from 150 entries on: the showcase is past
    // that, so this test is the one that sees the page's full list (a smaller app never got there).
    assert.ok(operations.length >= 150, `${operations.length} operations`);
    const response = await session.visit(page, '/docs');
    assert.equal(response.status(), 200);
    await page.waitForSelector('.opblock');
    // The page renders in one pass: no scrolling is needed for a block to exist.
    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent ?? ''} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`),
    );
    assert.equal(shown.length, operations.length);
    assert.deepEqual([...shown].sort(), [...operations].sort());
    assert.equal(await page.locator('.operations-virtual').count(), 0);
    assert.deepEqual(errors, []);
  });

  // Deep links: the page scrolls to the operation and opens it, one far down the list included.
  test('a link to an operation opens it', { timeout: 30_000 }, async () => {
    const page = await session.newPage();
    await page.goto(session.url('/docs#/default/get_catalog_new_arrivals_index'), { waitUntil: 'load' });
    const open = page.locator('.opblock.is-open .opblock-summary-path');
    await open.waitFor();
    assert.deepEqual(await open.evaluateAll((paths) => paths.map((path) => path.getAttribute('data-path'))), ['/catalog/new-arrivals/index']);
    assert.ok((await page.evaluate(() => window.scrollY)) > 1000, 'scrolled to the operation');
  });
});
