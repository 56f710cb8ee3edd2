import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Request as PageRequest } from 'playwright-core';
import { BrowserSession, skipReason } from './harness.ts';

interface Submission {
  method: string;
  path: string;
  form: string;
  status: number;
  location: string | undefined;
}

// Submits the page's form by clicking `button`, and returns what went over the wire: the
// browser's POST, its 303 answer, and the list page it was sent back to.
async function submit(session: BrowserSession, page: Page, button: string): Promise<Submission> {
  const posted = page.waitForRequest((req: PageRequest) => req.method() === 'POST');
  await Promise.all([page.waitForURL(session.url('/books/')), page.click(button)]);
  const request = await posted;
  const answer = await request.response();
  assert.ok(answer, 'the POST got no answer');
  return {
    method: request.method(),
    path: session.pathOf(request.url()),
    form: request.postData() ?? '',
    status: answer.status(),
    location: answer.headers()['location'],
  };
}

async function rows(page: Page): Promise<string[][]> {
  return page.$$eval('#books tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent ?? '')));
}

describe('books through the HTML forms, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;

  before(async () => {
    session = await BrowserSession.open('books');
    page = await session.newPage();
  });

  after(async () => {
    await session?.close();
  });

  async function apiList(): Promise<unknown> {
    const res = await fetch(session.url('/books/'), { headers: { accept: 'application/json' } });
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    return res.json();
  }

  test('create two books, rename one (_method=put), delete one (_method=delete)', { timeout: 30_000 }, async () => {
    let res = await session.visit(page, '/books/', 'list-empty');
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'text/html; charset=utf-8');
    assert.equal(await page.title(), 'Books · Hickory');
    assert.equal(await page.textContent('#empty'), 'No books yet.');

    // Create: the "new" form posts name=… to /books/; the browser is sent back to the list.
    for (const name of ['Dune', 'Emma & <Persuasion>']) {
      await page.click('text=Add a book');
      assert.equal(session.pathOf(page.url()), '/books/new');
      await session.screenshot(page, 'new-form');
      await page.fill('input[name=name]', name);
      const sent = await submit(session, page, 'button:has-text("Create")');
      assert.deepEqual(sent, { method: 'POST', path: '/books/', form: `name=${encodeURIComponent(name).replace(/%20/g, '+')}`, status: 303, location: '/books/' });
      await session.screenshot(page, 'list-after-create');
    }
    // The name with markup shows as text (escaped by the template), not as elements.
    assert.deepEqual(await rows(page), [['1', 'Dune'], ['2', 'Emma & <Persuasion>']]);
    assert.equal(await page.locator('#books Persuasion').count(), 0);
    assert.deepEqual(await apiList(), [{ id: '1', name: 'Dune' }, { id: '2', name: 'Emma & <Persuasion>' }]);

    // A book's own page, reached from the list.
    await page.click('#books a:text-is("Dune")');
    assert.equal(session.pathOf(page.url()), '/books/1');
    assert.equal(await page.textContent('h1'), 'Dune');
    await session.screenshot(page, 'show');

    // Edit: the form posts _method=put to /books/1.
    await session.visit(page, '/books/', 'list');
    await page.click('#books tr[data-id="1"] >> text=Edit');
    assert.equal(session.pathOf(page.url()), '/books/1/edit');
    assert.equal(await page.inputValue('input[name=name]'), 'Dune');
    await page.fill('input[name=name]', 'Dune Messiah');
    await session.screenshot(page, 'edit-form');
    let sent = await submit(session, page, 'button:has-text("Save")');
    assert.deepEqual(sent, { method: 'POST', path: '/books/1', form: '_method=put&name=Dune+Messiah', status: 303, location: '/books/' });
    await session.screenshot(page, 'list-after-edit');
    assert.deepEqual(await rows(page), [['1', 'Dune Messiah'], ['2', 'Emma & <Persuasion>']]);

    // Delete: the confirmation page posts _method=delete to /books/2.
    await page.click('#books tr[data-id="2"] >> text=Delete');
    assert.equal(session.pathOf(page.url()), '/books/2/delete');
    assert.equal(await page.textContent('h1'), 'Delete Emma & <Persuasion>?');
    await session.screenshot(page, 'delete-confirmation');
    sent = await submit(session, page, 'button:has-text("Delete")');
    assert.deepEqual(sent, { method: 'POST', path: '/books/2', form: '_method=delete', status: 303, location: '/books/' });
    await session.screenshot(page, 'list-after-delete');
    assert.deepEqual(await rows(page), [['1', 'Dune Messiah']]);
    assert.deepEqual(await apiList(), [{ id: '1', name: 'Dune Messiah' }]);

    // The deleted book's pages are gone: the custom 404 page says so.
    res = await session.visit(page, '/books/2/edit', 'edit-deleted');
    assert.equal(res.status(), 404);
    assert.equal(await page.textContent('h1'), '404 · Not Found');
    assert.match((await page.textContent('main')) ?? '', /No book with id "2"\./);
  });
});
