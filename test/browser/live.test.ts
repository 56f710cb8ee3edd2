// The showcase's live page in Chromium: two open /live/ pages both show a book added through the
// JSON API, without a reload, under the showcase's CSP (no violation, no console error); a book
// whose write was rolled back shows on neither.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BrowserSession, skipReason } from './harness.ts';

const LISTEN = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`;

describe('the live page in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  const pages: Page[] = [];
  const consoleErrors: string[] = [];
  const failedLoads: string[] = [];

  before(async () => {
    session = await BrowserSession.open('live', {}, { seed: true });
    for (let i = 0; i < 2; i++) {
      const page = await session.newPage();
      await page.addInitScript(LISTEN);
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('response', (response) => {
        if (response.status() >= 400) failedLoads.push(`${response.status()} ${session.pathOf(response.url())}`);
      });
      pages.push(page);
    }
  });

  after(async () => {
    await session?.close();
  });

  async function books(page: Page): Promise<string[]> {
    return page.$$eval('#live-books li', (items) => items.map((li) => li.textContent ?? ''));
  }

  test('two open pages both show a book added through the API, without a reload; a rolled-back one on neither', { timeout: 60_000 }, async () => {
    for (const [i, page] of pages.entries()) {
      const response = await session.visit(page, '/live/', `live-before-${i}`);
      assert.equal(response.status(), 200);
      assert.equal(await page.textContent('h1'), 'Live');
      // Connected: the script's open handler ran, so the stream is in force.
      await page.waitForFunction(() => document.getElementById('live-status')?.textContent?.startsWith('Connected'), undefined, { timeout: 10_000 });
    }
    const before = await books(pages[0]!);
    assert.equal(before.length, 5);
    assert.deepEqual(await books(pages[1]!), before);

    const ghost = await fetch(session.url('/library/write_then_fail'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Ghost', redirect: 'manual' });
    assert.equal(ghost.status, 409);
    const added = await fetch(session.url('/books/'), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ name: 'The Left Hand of Darkness' }) });
    assert.equal(added.status, 200);
    const { id } = (await added.json()) as { id: string };

    for (const [i, page] of pages.entries()) {
      await page.waitForSelector(`#book-${id}`, { timeout: 10_000 });
      assert.deepEqual(await books(page), [...before, `${id}: The Left Hand of Darkness`], `page ${i}`);
      assert.equal(await page.getAttribute(`#book-${id}`, 'class'), 'arrived');
      await session.screenshot(page, `live-after-${i}`);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), [], `page ${i}: no CSP violation`);
    }
    // Chromium asks for /favicon.ico by itself (the showcase has none): the only failed load.
    assert.deepEqual(failedLoads.filter((load) => load !== '404 /favicon.ico'), []);
    assert.deepEqual(consoleErrors.filter((text) => !/status of 404/.test(text)), []);
    // The page was never reloaded: one navigation each, the same document.
    assert.equal(await pages[0]!.evaluate(() => performance.getEntriesByType('navigation').length), 1);
  });
});
