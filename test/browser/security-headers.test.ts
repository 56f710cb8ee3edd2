// @hickory/security-headers in Chromium: a page of same-origin scripts, stylesheets, images and
// fonts keeps working under helmet's default CSP (no violation reported), while what the policy
// forbids (an inline script, a framing page) is reported and blocked: the check can fail.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createApp, expose, response, securityHeadersPlugin, type App } from '@hickory/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH, skipReason } from './harness.ts';

// A 1×1 PNG (what `img-src 'self' data:` allows, from a file and as a data: URL).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/p+FUEQAAAABJRU5ErkJggg==', 'base64');

const FILES: Record<string, string | Buffer> = {
  'index.html': `<!doctype html>
<html><head><meta charset="utf-8"><title>under CSP</title>
<link rel="icon" href="/dot.png">
<link rel="stylesheet" href="/site.css">
<script src="/app.js" defer></script>
</head><body>
<p id="styled">styled</p>
<img id="file-img" src="/dot.png" alt="">
<img id="data-img" src="data:image/png;base64,${PNG.toString('base64')}" alt="">
<form id="search" action="/search"><input name="q"></form>
</body></html>`,
  'site.css': '#styled { color: rgb(0, 128, 128); }\n',
  'app.js': "document.body.dataset.ran = 'yes';\nfetch('/data.json').then((r) => r.json()).then((d) => { document.body.dataset.fetched = d.ok; });\n",
  'data.json': '{"ok":"yes"}',
  'dot.png': PNG,
  'inline.html': '<!doctype html><title>inline</title><script>document.title = "ran";</script><p>inline</p>',
};

// Collected in the page before any of its scripts run.
// The page comes from a handler, its assets from static_root.
class Pages {
  @expose() index() {
    response.content_type = 'text/html';
    return FILES['index.html'];
  }
}

const LISTEN = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`;

describe('security headers in Chromium: pages work under the default CSP', { skip: skipReason() }, () => {
  let dir: string;
  let app: App;
  let base: string;
  let browser: Browser;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hickory-csp-'));
    for (const [name, content] of Object.entries(FILES)) await writeFile(join(dir, name), content);
    app = createApp({ root: new Pages(), logger: false, static_root: dir, plugins: [securityHeadersPlugin] });
    base = (await app.listen({ port: 0, host: '127.0.0.1' })).url.replace(/\/$/, '');
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 20_000 });
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(path: string): Promise<{ page: Page; console: string[]; status: number | undefined; csp: string | undefined }> {
    const page = await browser.newPage();
    const console: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') console.push(message.text());
    });
    await page.addInitScript(LISTEN);
    const res = await page.goto(`${base}${path}`, { waitUntil: 'load' });
    return { page, console, status: res?.status(), csp: res?.headers()['content-security-policy'] };
  }

  test('a page of same-origin script, stylesheet, images and fetch: everything runs, no violation, no console error', async () => {
    const { page, console, status, csp } = await open('/');
    assert.equal(status, 200);
    assert.match(csp ?? '', /^default-src 'self';.*;upgrade-insecure-requests$/);
    await page.waitForFunction(() => document.body.dataset.fetched === 'yes');
    assert.equal(await page.evaluate(() => document.body.dataset.ran), 'yes');
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('styled')!).color), 'rgb(0, 128, 128)');
    for (const id of ['file-img', 'data-img']) {
      assert.equal(await page.evaluate((at) => (document.getElementById(at) as HTMLImageElement).naturalWidth, id), 1, id);
    }
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), []);
    assert.deepEqual(console, []);
    await page.close();
  });

  test('what the policy forbids is blocked and reported: an inline script, and framing by another origin', async () => {
    const { page, console } = await open('/inline.html');
    assert.equal(await page.title(), 'inline');
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), ['script-src-elem inline']);
    assert.equal(console.filter((text) => /violates the following Content Security Policy directive 'script-src 'self''/.test(text)).length, 1, console.join('\n'));
    await page.close();

    // A page on another origin (another port) framing ours: frame-ancestors 'self' and
    // X-Frame-Options: SAMEORIGIN stop it.
    const framer = createApp({ root: new Pages(), logger: false });
    const framing = await framer.listen({ port: 0, host: '127.0.0.1' });
    const outer = await browser.newPage();
    const blocked: string[] = [];
    outer.on('console', (message) => blocked.push(message.text()));
    try {
      await outer.goto(framing.url);
      await outer.setContent(`<iframe src="${base}/index.html"></iframe>`);
      await outer.waitForTimeout(500);
      const inner = outer.frames().find((frame) => frame !== outer.mainFrame());
      assert.notEqual(await inner?.evaluate(() => document.title).catch(() => 'blocked'), 'under CSP');
      assert.ok(blocked.some((text) => /frame-ancestors|X-Frame-Options/.test(text)), blocked.join('\n'));
    } finally {
      await outer.close();
      await framer.close();
    }
  });
});
