// The request id a browser gets back is the one in the sandbox's log: the form's POST answers
// with X-Request-Id, and the handler's "book added" line and the request's line carry it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { captureLog } from '../fixtures/log-capture.ts';
import { BrowserSession, skipReason } from './harness.ts';

describe('request ids in the log, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;
  const log = captureLog();

  before(async () => {
    session = await BrowserSession.open('request-log', { logger: { stream: log.stream } });
    page = await session.newPage();
  });

  after(async () => {
    await session?.close();
  });

  test('the X-Request-Id of the form\'s POST is the reqId of the "book added" line and of its request line', { timeout: 30_000 }, async () => {
    await session.visit(page, '/books/new', 'new-form');
    await page.fill('input[name=name]', 'Dune');
    const answered = page.waitForResponse((res) => res.request().method() === 'POST');
    await Promise.all([page.waitForURL(session.url('/books/')), page.click('button:has-text("Create")')]);
    const post = await answered;
    await session.screenshot(page, 'list-after-create');
    assert.equal(post.status(), 303);
    const id = post.headers()['x-request-id'];
    assert.match(id ?? '', /^[0-9a-f]{8}-[0-9a-z]+$/);

    const lines = log.lines();
    const added = lines.filter((line) => line['msg'] === 'book added');
    assert.deepEqual(added.map((line) => [line['reqId'], line['bookId']]), [[id, '1']]);
    const completed = lines.find((line) => line['msg'] === 'request completed' && line['reqId'] === id);
    assert.deepEqual(completed?.['req'], { method: 'POST', url: '/books/', remoteAddress: '127.0.0.1' });
    assert.equal(completed?.['res'].statusCode, 303);
    // Every page and asset the browser loaded has its own id, each logged once.
    const ids = lines.filter((line) => line['msg'] === 'request completed').map((line) => line['reqId']);
    assert.equal(new Set(ids).size, ids.length);
  });
});
