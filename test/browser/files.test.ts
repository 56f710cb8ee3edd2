import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BrowserSession, skipReason } from './harness.ts';

// Every byte value, CRLFs and a line that looks like a multipart boundary, over several chunks.
function awkwardBytes(): Buffer {
  const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const boundaryLike = Buffer.from('\r\n------WebKitFormBoundary\r\n--\r\n\r\n');
  const parts: Buffer[] = [];
  for (let i = 0; i < 600; i++) parts.push(every, boundaryLike, Buffer.from([i & 0xff, (i * 7) & 0xff]));
  return Buffer.concat(parts);
}

describe('uploads and downloads through the /files/ form, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;

  before(async () => {
    session = await BrowserSession.open('files');
    page = await session.newPage();
  });

  after(async () => {
    await session?.close();
  });

  test('a file uploaded with the form downloads back with the same bytes and name', { timeout: 30_000 }, async () => {
    const bytes = awkwardBytes();
    const filename = 'notes été 2024.bin';
    await session.visit(page, '/files/', 'empty');
    assert.equal(await page.textContent('#files'), '\nNo files yet.\n');

    await page.setInputFiles('input[name=file]', { name: filename, mimeType: 'application/octet-stream', buffer: bytes });
    await session.screenshot(page, 'file-chosen');
    const posted = page.waitForResponse((res) => res.request().method() === 'POST');
    await Promise.all([page.waitForURL(session.url('/files/')), page.click('button:has-text("Upload")')]);
    const answer = await posted;
    assert.equal(answer.status(), 303);
    assert.equal(answer.headers()['location'], '/files/');
    assert.match(answer.request().headers()['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    await session.screenshot(page, 'uploaded');

    const link = page.locator('#files a');
    assert.equal(await link.count(), 1);
    assert.equal(await link.textContent(), filename);
    assert.match((await page.textContent('#files li')) ?? '', new RegExp(`\\(${bytes.length} bytes, application/octet-stream\\)`));
    const href = new URL((await link.getAttribute('href')) ?? '', page.url()).href;
    assert.equal(session.pathOf(href), '/files/download/1');

    // Clicking the link: the browser saves it under the name it was uploaded with.
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), filename);
    const saved = await download.path();
    assert.ok(saved, 'the download was not saved');
    assert.ok((await readFile(saved)).equals(bytes), 'the downloaded bytes differ from the uploaded ones');

    // The same link fetched directly: headers and bytes.
    const res = await fetch(href);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.equal(res.headers.get('content-length'), String(bytes.length));
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="[^"]*"; filename\*=UTF-8''notes%20%C3%A9t%C3%A9%202024\.bin$/);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes));

    // An unknown id is the custom 404 page.
    const missing = await session.visit(page, '/files/download/9', 'missing-download');
    assert.equal(missing.status(), 404);
    assert.equal(await page.textContent('h1'), '404 · Not Found');
  });
});
