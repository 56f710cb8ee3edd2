// WebSockets in Chromium: a page opens a socket to its own server, sends and receives the echo; a
// page of another origin (another 127.0.0.1 port) is refused by allowedOrigins before the upgrade.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createKernel, definePlugin, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { websocket, websocketPlugin } from '@hickory/websocket';
import type { WebSocket } from 'ws';
import { launchChromium, skipReason } from './harness.ts';

// Opens a socket to `target`, sends one message, and shows what happened in #got.
const page = (target: string) => `<!doctype html><meta charset="utf-8"><title>socket</title><p id="got"></p>
<script>
  const got = document.getElementById('got');
  const socket = new WebSocket(${JSON.stringify(target)});
  socket.onopen = () => socket.send('hello from chromium');
  socket.onmessage = (event) => { got.textContent = 'echo:' + event.data; socket.close(1000); };
  socket.onclose = (event) => { if (!got.textContent) got.textContent = 'closed:' + event.code; };
</script>`;

describe('WebSockets in Chromium', { skip: skipReason() }, () => {
  let app: Kernel;
  let other: Kernel;
  let base: string;
  let otherBase: string;
  let browser: Browser;
  const answered: Array<[string, number]> = [];
  const handled: string[] = [];

  before(async () => {
    class Root {
      @expose() index() {
        return page(`${base.replace(/^http/, 'ws')}/echo`);
      }
      @websocket() echo(socket: WebSocket) {
        handled.push('echo');
        socket.on('message', (data: Buffer) => socket.send(data.toString()));
      }
    }
    const statuses = definePlugin({
      name: 'statuses',
      apply: (kernel) => kernel.hooks.onResponse.tap('statuses', (request, _response, info) => void answered.push([request.path, info.status])),
    });
    app = createKernel({ root: new Root(), logger: false })
      .use(dispatchPlugin)
      .use(statuses)
      // Its own origin only (as the default would be), written out.
      .use(websocketPlugin, { allowedOrigins: (origin) => origin === base });
    base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
    // Another origin: same host, another port; its page tries the first app's socket.
    class OtherRoot {
      @expose() index() {
        return page(`${base.replace(/^http/, 'ws')}/echo`);
      }
    }
    other = createKernel({ root: new OtherRoot(), logger: false }).use(dispatchPlugin);
    otherBase = (await other.listen({ port: 0, host: '127.0.0.1' })).url;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await other?.close();
  });

  test('a page opens a WebSocket, sends, and receives the echo', { timeout: 30_000 }, async () => {
    const tab = await browser.newPage();
    await tab.goto(`${base}/`);
    await tab.waitForFunction(() => document.getElementById('got')!.textContent !== '', undefined, { timeout: 10_000 });
    assert.equal(await tab.textContent('#got'), 'echo:hello from chromium');
    assert.deepEqual(answered.filter(([path]) => path === '/echo'), [['/echo', 101]]);
    await tab.close();
  });

  test('a page of another origin is refused (403) before the upgrade', { timeout: 30_000 }, async () => {
    handled.length = 0;
    answered.length = 0;
    const tab = await browser.newPage();
    await tab.goto(`${otherBase}/`);
    await tab.waitForFunction(() => document.getElementById('got')!.textContent !== '', undefined, { timeout: 10_000 });
    // The browser tells the page no more than that the connection failed.
    assert.equal(await tab.textContent('#got'), 'closed:1006');
    assert.deepEqual(answered, [['/echo', 403]]);
    assert.deepEqual(handled, []);
    await tab.close();
  });
});
