import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BrowserSession, skipReason } from './harness.ts';

const ENGINES = ['ejs', 'nunjucks', 'handlebars'];
// Markup that would run or show as elements if a template did not escape it.
const HOSTILE = '<b>hi</b><img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';

describe('error pages and template pages, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;

  before(async () => {
    session = await BrowserSession.open('pages');
    page = await session.newPage();
  });

  after(async () => {
    await session?.close();
  });

  test('an unknown path shows the custom 404 page (config errors)', async () => {
    const res = await session.visit(page, '/no/such/page', 'not-found');
    assert.equal(res.status(), 404);
    assert.equal(res.headers()['content-type'], 'text/html; charset=utf-8');
    assert.equal(await page.title(), 'Not Found · Hickory');
    assert.equal(await page.textContent('h1'), '404 · Not Found');
    assert.equal(await page.textContent('footer'), 'Hickory sandbox');
    await page.click('text=Back to the start');
    assert.equal(session.pathOf(page.url()), '/');
    assert.equal(await page.title(), 'Hickory sandbox');
  });

  test('a handler that throws shows the custom 500 page without the details', async () => {
    const res = await session.visit(page, '/status/broken', 'server-error');
    assert.equal(res.status(), 500);
    assert.equal(await page.title(), 'Internal Server Error · Hickory');
    assert.equal(await page.textContent('h1'), '500 · Internal Server Error');
    assert.doesNotMatch((await page.textContent('body')) ?? '', /a bug in a controller/);
  });

  test('each engine shows visitor input as text, not markup', async () => {
    for (const engine of ENGINES) {
      const res = await session.visit(page, `/pages/${engine}?comment=${encodeURIComponent(HOSTILE)}`, `${engine}-escaped`);
      assert.equal(res.status(), 200, engine);
      assert.equal(await page.title(), `${engine === 'ejs' ? 'An' : 'A'} ${engine} page · Hickory`);
      assert.equal(await page.textContent('main q'), HOSTILE, engine);
      assert.equal(await page.locator('main q *').count(), 0, `${engine} let markup through`);
      assert.equal(await page.locator('main li').count(), 4, engine);
      assert.equal(await page.textContent('footer'), 'Hickory sandbox', engine);
      assert.equal(await page.getAttribute(`nav a[href="/pages/${engine}"]`, 'aria-current'), 'page', engine);
    }
  });
});
