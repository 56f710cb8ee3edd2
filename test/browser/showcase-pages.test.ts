// The showcase as one product, in Chromium: every page (ejs, nunjucks and handlebars pages, the
// pages built in controllers, error pages) has the site's masthead, its one stylesheet and its
// footer; a fresh start shows books; and no page breaks the security headers' CSP (no violation
// reported, no console error). Each page is saved under test-output/screenshots/showcase-*.png.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { SEED_BOOKS } from '@hickory/sandbox/store/migrations';
import { BrowserSession, skipReason } from './harness.ts';

// Every page a visitor can reach, with its status and <h1>.
const PAGES: Array<[path: string, status: number, heading: string]> = [
  ['/', 200, 'Hickory sandbox'],
  ['/books/', 200, 'Books'],
  ['/books/1', 200, 'Dune Messiah'],
  ['/books/new', 200, 'New book'],
  ['/books/1/edit', 200, 'Edit Dune Messiah'],
  ['/books/1/delete', 200, 'Delete Dune Messiah?'],
  ['/library/', 200, 'Library (SQLite)'],
  ['/live/', 200, 'Live'],
  ['/files/', 200, 'Files'],
  ['/pages/', 200, 'Templates'],
  ['/pages/ejs?comment=Hello', 200, 'An ejs page'],
  ['/pages/nunjucks?comment=Hello', 200, 'A nunjucks page'],
  ['/pages/handlebars?comment=Hello', 200, 'A handlebars page'],
  ['/catalog/', 200, 'Catalog'],
  ['/catalog/books/', 200, 'Books'],
  ['/catalog/books/bestsellers', 200, 'Bestsellers'],
  ['/catalog/new-arrivals/', 200, 'New arrivals'],
  ['/status/', 200, 'Status codes'],
  ['/admin/', 401, 'Sign in'],
  ['/no/such/page', 404, '404 · Not Found'],
  ['/status/teapot', 418, "418 · I'm a Teapot"],
  ['/status/broken', 500, '500 · Internal Server Error'],
];

// Collected in each page before its own scripts run.
const LISTEN = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`;

interface Checked {
  violations: string[];
  console: string[];
}

describe('the showcase looks like one product, under its CSP, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;
  const consoleErrors: string[] = [];

  before(async () => {
    session = await BrowserSession.open('showcase', {}, { seed: true });
    page = await session.newPage();
    await page.addInitScript(LISTEN);
    page.on('console', (message) => {
      // A page answered with an error status is logged by Chromium as a failed load: not a fault of the page.
      if (message.type() === 'error' && !/the server responded with a status of (401|404|418|500)/.test(message.text())) consoleErrors.push(message.text());
    });
  });

  after(async () => {
    await session?.close();
  });

  async function checked(): Promise<Checked> {
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    return { violations, console: consoleErrors.splice(0) };
  }

  // What every page of the site has: the masthead, the stylesheet (applied), the footer.
  async function assertSiteLayout(path: string): Promise<void> {
    assert.equal(await page.locator('link[rel=stylesheet]').count(), 1, path);
    assert.equal(await page.getAttribute('link[rel=stylesheet]', 'href'), '/style.css', path);
    assert.equal(await page.textContent('.masthead .brand'), 'Hickory sandbox', path);
    assert.equal(await page.locator('.site-nav a').count(), 9, path);
    // The stylesheet applied: the masthead's bark brown, the content on its paper card.
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.masthead')!).backgroundColor), 'rgb(91, 58, 26)', path);
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).backgroundColor), 'rgb(255, 253, 249)', path);
    assert.equal(await page.textContent('footer'), 'Hickory sandbox', path);
  }

  test('every page: its status, its heading, the site\'s layout and stylesheet, no CSP violation, no console error', { timeout: 60_000 }, async () => {
    for (const [path, status, heading] of PAGES) {
      const res = await session.visit(page, path);
      assert.equal(res.status(), status, path);
      assert.match(res.headers()['content-security-policy'] ?? '', /^default-src 'self';/, path);
      assert.equal((await page.textContent('main h1'))?.trim(), heading, path);
      await assertSiteLayout(path);
      assert.deepEqual(await checked(), { violations: [], console: [] }, path);
    }
  });

  test('a fresh start shows books: the seed books on /books/, /library/ and, once signed in, /admin/', { timeout: 30_000 }, async () => {
    await session.visit(page, '/books/', 'books-seeded');
    const names = await page.$$eval('#books tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent?.trim()));
    assert.deepEqual(names, SEED_BOOKS.map((book) => book.name));
    await session.visit(page, '/library/', 'library-seeded');
    assert.equal(await page.textContent('#count'), `${SEED_BOOKS.length} books in the database.`);

    await session.visit(page, '/admin/login', 'admin-login');
    await page.fill('input[name=password]', 'hickory');
    await Promise.all([page.waitForURL(session.url('/admin/')), page.click('button:has-text("Sign in")')]);
    await session.screenshot(page, 'admin-signed-in');
    assert.equal(await page.textContent('main h1'), 'Admin');
    assert.equal(await page.locator('#admin-books tr').count(), SEED_BOOKS.length);
    await assertSiteLayout('/admin/');
    assert.deepEqual(await checked(), { violations: [], console: [] });
  });

  test('/docs (Swagger UI from node_modules) runs under the same CSP: the document shown, no violation', { timeout: 30_000 }, async () => {
    const res = await session.visit(page, '/docs', 'docs-loading');
    assert.equal(res.status(), 200);
    await page.waitForSelector('.opblock-summary-path[data-path="/"]', { timeout: 10_000 });
    await session.screenshot(page, 'docs');
    assert.match((await page.textContent('.info .title')) ?? '', /^Hickory sandbox/);
    assert.deepEqual(await checked(), { violations: [], console: [] });
  });
});
