// HTTP/2 in Chromium: a page and its fetch POST over h2 against a self-signed certificate
// (accepted with --ignore-certificate-errors), the host read from :authority.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createKernel, request, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { selfSigned } from '../tls-http2.test.ts';
import { launchChromium, skipReason } from './harness.ts';

const PAGE = `<!doctype html><meta charset="utf-8"><title>h2</title><p id="out">…</p>
<script>
  fetch('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Dune' }) })
    .then((res) => res.json())
    .then((json) => { document.getElementById('out').textContent = json.name + ' over ' + json.version + ' from ' + json.host; });
</script>`;

describe('HTTP/2 in Chromium', { skip: skipReason() }, () => {
  let dir: string;
  let app: Kernel;
  let url: string;
  let browser: Browser;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hickory-h2-browser-'));
    const files = selfSigned(dir);
    class Root {
      @expose() index() {
        return PAGE;
      }
      @expose('json') echo(name: string) {
        return { name, version: request.raw.httpVersion, host: request.host, scheme: request.scheme };
      }
    }
    app = createKernel({ root: new Root(), logger: false, allowed_hosts: ['localhost'] }).use(dispatchPlugin);
    url = (await app.listen({ port: 0, host: '127.0.0.1', tls: { key: readFileSync(files.key), cert: readFileSync(files.cert) }, http2: true })).url;
    browser = await launchChromium(['--ignore-certificate-errors']);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the page and its JSON POST go over h2, the host from :authority', { timeout: 30_000 }, async () => {
    const page = await browser.newPage();
    const port = new URL(url).port;
    const answer = await page.goto(`https://localhost:${port}/`, { waitUntil: 'load' });
    assert.equal(answer?.status(), 200);
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== '…');
    assert.equal(await page.textContent('#out'), `Dune over 2.0 from localhost:${port}`);
    const protocol = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol);
    assert.equal(protocol, 'h2');
    await page.close();
  });
});
