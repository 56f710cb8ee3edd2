import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BrowserSession, skipReason } from './harness.ts';

// Links that answer an error on purpose, with the status they must answer.
// /admin/ asks a visitor to sign in: its login form, with a 401.
const DEMO_ERRORS: Record<string, number> = { '/no/such/page': 404, '/admin/': 401 };

// The status demo page's links and what each must answer (path, status, media type, text shown).
const STATUS_DEMOS: Array<[string, number, string, RegExp]> = [
  ['/status/forbidden', 403, 'text/plain', /^You may not see this\.$/],
  ['/status/non-authoritative', 203, 'application/json', /"source":\s*"a cache somewhere"/],
  ['/status/teapot', 418, 'text/html', /I am a teapot\./],
  ['/status/broken', 500, 'text/html', /500 · Internal Server Error\s+Something went wrong on our side\./],
];

// The links of a page's own content (every page also has the site's masthead).
async function linksOf(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval('main a[href]', (anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
  return [...new Set(hrefs.map((href) => new URL(href, page.url()).href))];
}

describe('the landing page, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;
  // Sub-resources (stylesheets) that failed while pages loaded; the favicon is not the app's.
  const brokenResources: string[] = [];

  before(async () => {
    session = await BrowserSession.open('landing');
    page = await session.newPage();
    page.on('response', (res) => {
      const request = res.request();
      if (request.isNavigationRequest() || res.status() < 400 || res.url().endsWith('/favicon.ico')) return;
      brokenResources.push(`${res.status()} ${res.url()}`);
    });
  });

  after(async () => {
    await session?.close();
  });

  test('every link of / answers a page that is not an error (the 404 demo answers its 404)', { timeout: 40_000 }, async () => {
    const landing = await session.visit(page, '/', 'landing');
    assert.equal(landing.status(), 200);
    assert.equal(await page.title(), 'Hickory sandbox');
    assert.equal(await page.textContent('h1'), 'Hickory sandbox');
    const links = await linksOf(page);
    assert.ok(links.length >= 20, `only ${links.length} links on the landing page`);
    const visited: string[] = [];
    for (const link of links) {
      assert.ok(link.startsWith(`${session.base}/`), `${link} leaves the sandbox`);
      const path = session.pathOf(link);
      const res = await session.visit(page, path);
      const expected = DEMO_ERRORS[path] ?? 200;
      assert.equal(res.status(), expected, `${path} answered ${res.status()}`);
      const text = (await page.textContent('body'))?.trim() ?? '';
      assert.notEqual(text, '', `${path} shows an empty page`);
      if (expected === 200 && (res.headers()['content-type'] ?? '').startsWith('text/html')) {
        assert.doesNotMatch(await page.title(), /Not Found|Error/, path);
        assert.doesNotMatch(text, /^\d{3} ·|Not Found|Internal Server Error/, path);
      }
      visited.push(`${path} → ${session.pathOf(res.url())}`);
    }
    // /catalog is answered by its canonical /catalog/ (a redirect the browser followed).
    assert.ok(visited.includes('/catalog → /catalog/'), visited.join('\n'));
    assert.deepEqual(brokenResources, []);
  });

  test('the status demo pages answer their own status codes', { timeout: 20_000 }, async () => {
    await session.visit(page, '/status/');
    const demos = (await linksOf(page)).map((link) => session.pathOf(link));
    assert.deepEqual(demos, STATUS_DEMOS.map(([path]) => path));
    for (const [path, status, type, text] of STATUS_DEMOS) {
      const res = await session.visit(page, path);
      assert.equal(res.status(), status, path);
      assert.equal(res.headers()['content-type']?.split(';')[0], type, path);
      const shown = (await page.textContent('body'))?.trim() ?? '';
      assert.match(shown, text, path);
    }
    // The 500 page never shows what the controller threw.
    assert.doesNotMatch((await page.content()), /a bug in a controller/);
  });
});
