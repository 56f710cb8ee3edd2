// Compression and HTTP caching as Chromium sees them: a page whose stylesheet (a static file) and
// JSON (a negotiated handler) arrive br-compressed and are decoded by the browser, and a reload
// that revalidates the JSON with its ETag and gets a 304.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { compressPlugin, createApp, definePlugin, expose } from '@hickory/app';
import { skipReason } from './harness.ts';

const CSS = `${Array.from({ length: 80 }, (_, i) => `.unused-${i} { margin: ${i}px; }`).join('\n')}\n#title { color: rgb(1, 2, 3); }\n`;
const PAGE = `<!doctype html><html><head><link rel="stylesheet" href="/style.css"></head>
<body><h1 id="title">Books</h1><p id="count"></p>
<script>fetch('/books', { headers: { accept: 'application/json' } }).then((r) => r.json()).then((books) => { document.getElementById('count').textContent = String(books.length); });</script>
</body></html>`;

class Root {
  @expose('json')
  @expose()
  books() {
    return Array.from({ length: 300 }, (_, i) => ({ id: i, title: `Book ${i}` }));
  }
}

test('Chromium decodes br answers (a static file and JSON) and revalidates the JSON with its ETag', { skip: skipReason() }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-compress-browser-'));
  await writeFile(join(dir, 'style.css'), CSS);
  await writeFile(join(dir, 'index.html'), PAGE);
  const statuses: string[] = [];
  const record = definePlugin({
    name: 'record',
    apply(kernel) {
      kernel.hooks.onResponse.tap('record', (request, response) => void statuses.push(`${request.path} ${response.status}`));
    },
  });
  const app = createApp({ root: new Root(), static_root: dir, logger: false, plugins: [compressPlugin, record] });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
    timeout: 20_000,
  });
  try {
    const page = await browser.newPage();
    const encodings = new Map<string, string | undefined>();
    page.on('response', (response) => void encodings.set(new URL(response.url()).pathname, response.headers()['content-encoding']));
    await page.goto(`${url}/index.html`);
    await page.waitForFunction(() => document.getElementById('count')?.textContent !== '');
    assert.equal(await page.textContent('#count'), '300');
    assert.equal(await page.$eval('#title', (el) => getComputedStyle(el).color), 'rgb(1, 2, 3)');
    assert.equal(encodings.get('/style.css'), 'br');
    assert.equal(encodings.get('/books'), 'br');
    assert.ok(statuses.includes('/books 200'), statuses.join(', '));

    // A reload revalidates what the browser cached: the JSON comes back as a 304.
    statuses.length = 0;
    await page.reload();
    await page.waitForFunction(() => document.getElementById('count')?.textContent === '300');
    assert.ok(statuses.includes('/books 304'), statuses.join(', '));
  } finally {
    await browser.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});
