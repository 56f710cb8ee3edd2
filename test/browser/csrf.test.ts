// @hickory/csrf in Chromium: a form on another origin (another port of 127.0.0.1) posting to the
// app is refused with 403 before its handler runs; the app's own form passes; an exempt handler
// takes the cross-origin post.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKernel, escapeHtml, type Kernel } from '@hickory/core';
import { csrfPlugin } from '@hickory/csrf';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import type { Page } from 'playwright-core';
import { skipReason } from './harness.ts';
import { twoOrigins, type TwoOrigins } from './two-origins.ts';

const transfers: string[] = [];

const form = (action: string, amount: string) =>
  `<!doctype html><title>form</title><form method="post" action="${escapeHtml(action)}"><input name="amount" value="${amount}"><button>Send</button></form>`;

class Bank {
  @expose() index() {
    return form('/transfer', '5');
  }
  @expose() transfer(amount: string) {
    transfers.push(amount);
    return `<!doctype html><title>done</title><p id="done">transferred ${escapeHtml(amount)}</p>`;
  }
  @expose({ csrf: false }) webhook(amount: string) {
    transfers.push(`webhook ${amount}`);
    return `<!doctype html><title>hook</title><p id="done">hooked ${escapeHtml(amount)}</p>`;
  }
}

// The other origin: pages whose forms post to the bank.
class Elsewhere {
  constructor(private readonly bank: () => string) {}
  @expose() index() {
    return form(`${this.bank()}/transfer`, '1000');
  }
  @expose() hook() {
    return form(`${this.bank()}/webhook`, '7');
  }
  @expose() fetching() {
    return `<!doctype html><title>fetch</title><script>fetch(${JSON.stringify(`${this.bank()}/transfer`)}, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ amount: '99' }) }).then(() => { document.title = 'sent'; }, () => { document.title = 'failed'; });</script>`;
  }
}

async function submit(page: Page): Promise<{ status: number; text: string }> {
  const posted = page.waitForResponse((res) => res.request().method() === 'POST');
  await page.click('button');
  const response = await posted;
  await page.waitForLoadState('load');
  return { status: response.status(), text: (await page.textContent('body'))?.trim() ?? '' };
}

describe('csrfPlugin in Chromium: two origins of 127.0.0.1', { skip: skipReason() }, () => {
  let origins: TwoOrigins;
  let page: Page;

  before(async () => {
    let bankUrl = '';
    const bank: Kernel = createKernel({ root: new Bank(), logger: false }).use(dispatchPlugin).use(csrfPlugin);
    const other: Kernel = createKernel({ root: new Elsewhere(() => bankUrl), logger: false }).use(dispatchPlugin);
    origins = await twoOrigins(bank, other);
    bankUrl = origins.app;
    page = await origins.context.newPage();
  });

  after(async () => {
    await origins?.close();
  });

  test('the app own form posts (Sec-Fetch-Site: same-origin) and is served', async () => {
    transfers.length = 0;
    await page.goto(`${origins.app}/`);
    const sent = page.waitForRequest((req) => req.method() === 'POST');
    const answer = await submit(page);
    assert.equal((await (await sent).allHeaders())['sec-fetch-site'], 'same-origin');
    assert.deepEqual(answer, { status: 200, text: 'transferred 5' });
    assert.deepEqual(transfers, ['5']);
  });

  test('a form on another port posting to the app is refused with 403, and its handler never runs', async () => {
    transfers.length = 0;
    await page.goto(`${origins.other}/`);
    const sent = page.waitForRequest((req) => req.method() === 'POST');
    const answer = await submit(page);
    const headers = await (await sent).allHeaders();
    // Another port of the same address: another origin, the same site.
    assert.equal(headers['sec-fetch-site'], 'same-site');
    assert.equal(headers['origin'], origins.other);
    assert.equal(answer.status, 403);
    assert.match(answer.text, /Cross-origin POST refused \(Sec-Fetch-Site: same-site\)/);
    assert.deepEqual(transfers, []);
  });

  test('a no-cors fetch from the other origin is refused too', async () => {
    transfers.length = 0;
    const refused = page.waitForResponse((res) => res.request().method() === 'POST');
    await page.goto(`${origins.other}/fetching`);
    assert.equal((await refused).status(), 403);
    await page.waitForFunction(() => document.title !== 'fetch');
    assert.deepEqual(transfers, []);
  });

  test('a handler exposed with { csrf: false } takes the cross-origin post', async () => {
    transfers.length = 0;
    await page.goto(`${origins.other}/hook`);
    assert.deepEqual(await submit(page), { status: 200, text: 'hooked 7' });
    assert.deepEqual(transfers, ['webhook 7']);
  });
});
