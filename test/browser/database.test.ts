// The showcase's SQLite pages in Chromium: a write that fails is rolled back (the list and the
// count are unchanged), and /admin/ is reached only through the login form (a signed session
// cookie, which the sign-out makes worthless).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BrowserSession, skipReason } from './harness.ts';

describe('the showcase database and its admin pages, in Chromium', { skip: skipReason() }, () => {
  let session: BrowserSession;
  let page: Page;

  before(async () => {
    session = await BrowserSession.open('database');
    page = await session.newPage();
  });

  after(async () => {
    await session?.close();
  });

  const books = () => page.$$eval('#library-books li', (items) => items.map((li) => li.textContent ?? ''));

  test('add a book, then a write that fails: the failed one is not kept', { timeout: 30_000 }, async () => {
    await session.visit(page, '/library/', 'library-empty');
    assert.equal(await page.textContent('#count'), '0 books in the database.');

    await page.fill('#add-form input[name=name]', 'Dune');
    await Promise.all([page.waitForURL(session.url('/library/')), page.click('#add-form button')]);
    assert.deepEqual(await books(), ['1: Dune']);
    assert.equal(await page.textContent('#count'), '1 book in the database.');

    await page.fill('#fail-form input[name=name]', 'Ghost');
    const [failed] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/library/write_then_fail')), page.click('#fail-form button')]);
    assert.equal(failed.status(), 409);
    await page.waitForLoadState('load');
    assert.match(await page.textContent('body') ?? '', /Book 2 \("Ghost"\) was written, then this request failed: its transaction was rolled back/);
    await session.screenshot(page, 'write-then-fail');

    await session.visit(page, '/library/', 'library-after-rollback');
    assert.deepEqual(await books(), ['1: Dune']);
    assert.equal(await page.textContent('#count'), '1 book in the database.');
  });

  test('/admin/ shows the login form (401) until signed in; signing out closes it again', { timeout: 30_000 }, async () => {
    let res = await session.visit(page, '/admin/', 'admin-refused');
    assert.equal(res.status(), 401);
    assert.equal(await page.title(), 'Sign in · Hickory');

    await page.fill('#login-form input[name=password]', 'wrong');
    await Promise.all([page.waitForLoadState('load'), page.click('#login-form button')]);
    assert.equal(await page.textContent('#login-error'), 'Wrong password.');

    await page.fill('#login-form input[name=password]', 'hickory');
    await Promise.all([page.waitForURL(session.url('/admin/')), page.click('#login-form button')]);
    assert.equal(await page.title(), 'Admin · Hickory');
    assert.deepEqual(await page.$$eval('#admin-books td:nth-child(2)', (tds) => tds.map((td) => td.textContent)), ['Dune']);
    const cookies = await session.context.cookies();
    const session_ = cookies.find((c) => c.name === 'hickory_admin');
    assert.ok(session_, 'the session cookie is set');
    // @hickory/session's signed id: 32 random bytes and their HMAC, base64url.
    assert.match(session_.value, /^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    assert.equal(session_.httpOnly, true);
    assert.equal(session_.sameSite, 'Lax');
    // Plain http here: Secure only when the page came over https.
    assert.equal(session_.secure, false);
    // Page scripts cannot read it.
    assert.equal(await page.evaluate(() => document.cookie.includes('hickory_admin')), false);
    await session.screenshot(page, 'admin-signed-in');

    await Promise.all([page.waitForURL(session.url('/admin/')), page.click('#admin-books button')]);
    assert.deepEqual(await page.$$eval('#admin-books td', (tds) => tds.length), 0);

    await Promise.all([page.waitForURL(session.url('/admin/login')), page.click('#logout')]);
    assert.equal((await session.context.cookies()).find((c) => c.name === 'hickory_admin'), undefined, 'the browser forgot the cookie');
    res = await session.visit(page, '/admin/', 'admin-signed-out');
    assert.equal(res.status(), 401);
    // The cookie kept from before the sign-out, put back: its session was destroyed, so still 401.
    await session.context.addCookies([session_]);
    res = await session.visit(page, '/admin/', 'admin-old-cookie');
    assert.equal(res.status(), 401);
    assert.equal(await page.title(), 'Sign in · Hickory');
  });
});
