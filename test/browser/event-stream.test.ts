// Server-sent events in Chromium: an EventSource receives typed JSON events as they come, and
// reconnects with the last id it saw (Last-Event-ID), which the handler reads to resume.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { createKernel, eventStream, request, type Kernel, type ServerSentEvent } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { launchChromium, skipReason } from './harness.ts';

const PAGE = `<!doctype html><meta charset="utf-8"><title>feed</title><ul id="got"></ul>
<script>
  const source = new EventSource('/feed');
  source.addEventListener('book', (event) => {
    const li = document.createElement('li');
    li.textContent = event.lastEventId + ':' + JSON.parse(event.data).name;
    document.getElementById('got').append(li);
  });
</script>`;

describe('server-sent events in Chromium', { skip: skipReason() }, () => {
  let app: Kernel;
  let base: string;
  let browser: Browser;
  const resumedFrom: Array<string | undefined> = [];

  before(async () => {
    class Root {
      @expose() index() {
        return PAGE;
      }
      // EventSource asks for `Accept: text/event-stream`: the handler says it answers that.
      @expose({ content_type: 'text/event-stream' }) feed() {
        const last = request.headers['last-event-id'] as string | undefined;
        resumedFrom.push(last);
        const start = last === undefined ? 1 : Number(last) + 1;
        return eventStream(
          (async function* (): AsyncGenerator<ServerSentEvent> {
            // Two books, then the stream ends: the browser reconnects (retry: 100 ms) with the last id.
            for (let id = start; id < start + 2; id++) {
              yield { event: 'book', id, data: { name: `book ${id}` }, retry: 100 };
              await sleep(50);
            }
          })(),
          { heartbeat: 0 },
        );
      }
    }
    app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
    base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('events arrive as they come, typed and JSON; a reconnect resumes after Last-Event-ID', { timeout: 30_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(base, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelectorAll('#got li').length >= 4, undefined, { timeout: 10_000 });
    const got = await page.$$eval('#got li', (items) => items.map((li) => li.textContent));
    assert.deepEqual(got.slice(0, 4), ['1:book 1', '2:book 2', '3:book 3', '4:book 4']);
    assert.deepEqual(resumedFrom.slice(0, 2), [undefined, '2']);
    await page.close();
  });
});
