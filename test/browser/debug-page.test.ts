// The debug page (debug: true) in Chromium: the showcase's broken handler shows its error, the
// stack at the controller's TypeScript line, and the browser's cookie masked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BrowserSession, skipReason } from './harness.ts';

describe('the debug page, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;

  before(async () => {
    session = await BrowserSession.open('debug-page', { debug: true });
    await session.context.addCookies([{ name: 'sid', value: 'do-not-show-me', url: session.url('/') }]);
    page = await session.newPage();
  });

  after(async () => {
    await session?.close();
  });

  test('/status/broken shows the error, the stack in status.ts, the route walked and a masked cookie', { timeout: 30_000 }, async () => {
    const response = await session.visit(page, '/status/broken', 'broken');
    assert.equal(response.status(), 500);
    assert.equal(await page.textContent('h1'), 'Error: a bug in a controller (the client only sees a generic 500 page)');
    assert.match((await page.textContent('#stack')) ?? '', /sandbox\/src\/controllers\/status\.ts:37:\d+/);
    assert.equal(await page.textContent('#headers tr:has(th:text-is("cookie")) td'), '••• (masked, 18 characters)');
    assert.equal(await page.locator('text=do-not-show-me').count(), 0);
    const route = await page.locator('section:has(h2:text-is("Route walked")) td').allTextContents();
    assert.deepEqual(route, ['/status/broken', 'RootController → StatusController', 'StatusController.broken']);
  });
});
