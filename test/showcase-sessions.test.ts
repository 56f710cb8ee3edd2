// The showcase's admin sign-in on @hickory/session (issue #37): under `hickory serve --workers 2`
// on one SQLite file, in production mode, a session made by one worker is honoured by the other,
// kept as one row of sqlStore's table, and a sign-out ends it on both (the old cookie is refused
// 401); the cookie is Secure over https; HICKORY_SESSION_SECRET rotates its key. (PostgreSQL, two
// instances on one database: test/showcase-postgres.test.ts.)
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { createSandbox } from '@hickory/sandbox/app';
import { serveShowcaseWorkers, type ShowcaseWorkers } from './fixtures/showcase-sqlite-workers.ts';
import { send } from './showcase-load.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'workers-password';
const SECRET = 'a-session-secret-of-the-workers-test-0123456789';

function sessionRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM hickory_sessions').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('admin sessions under hickory serve --workers 2 on one SQLite file (NODE_ENV=production)', () => {
  let showcase: ShowcaseWorkers | undefined;
  let file = '';
  let base = '';

  before(async () => {
    showcase = await serveShowcaseWorkers('hickory-showcase-sessions-', { NODE_ENV: 'production', HICKORY_ADMIN_PASSWORD: PASSWORD, HICKORY_SESSION_SECRET: SECRET });
    ({ file, base } = showcase);
  });

  after(() => showcase?.stop());

  test('signed in on one worker, honoured by both; signed out on one, refused by both', { timeout: 60_000 }, async () => {
    const login = await send(base, { method: 'POST', path: '/admin/login', form: `password=${PASSWORD}` });
    assert.equal(login.status, 302, login.body);
    assert.equal(login.headers['location'], '/admin/');
    const setCookie = String(login.headers['set-cookie']);
    assert.match(setCookie, /^hickory_admin=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Max-Age=28800; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie.split(';')[0]!;
    assert.equal(sessionRows(file), 1);

    // Fresh connections: the primary hands them to the two workers in turn.
    for (let i = 0; i < 6; i++) {
      const page = await send(base, { path: '/admin/', headers: { cookie } });
      assert.equal(page.status, 200, `request ${i}`);
      assert.match(page.body, /<button type="submit" id="logout">Sign out<\/button>/, `request ${i}`);
    }
    // A session read changes nothing: still one row, and no new cookie.
    assert.equal(sessionRows(file), 1);

    const out = await send(base, { method: 'POST', path: '/admin/logout', headers: { cookie } });
    assert.equal(out.status, 302);
    assert.equal(out.headers['location'], '/admin/login');
    assert.deepEqual(out.headers['set-cookie'], ['hickory_admin=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax']);
    assert.equal(sessionRows(file), 0);
    for (let i = 0; i < 6; i++) {
      const refused = await send(base, { path: '/admin/', headers: { cookie } });
      assert.equal(refused.status, 401, `request ${i}`);
      assert.match(refused.body, /<form method="post" action="\/admin\/login" id="login-form">/, `request ${i}`);
    }
    // The sign-in form is still CSRF-protected: another site's POST is refused before routing.
    const crossSite = await send(base, { method: 'POST', path: '/admin/login', form: `password=${PASSWORD}`, headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.headers['set-cookie'], undefined);
    assert.equal(sessionRows(file), 0);
  });
});

test('over https (behind a trusted proxy) the session cookie is Secure too', async () => {
  const app = await createSandbox({ logger: false, trust_proxy: 'loopback' });
  try {
    const login = await app.inject({ method: 'POST', url: '/admin/login', headers: { ...form, 'x-forwarded-proto': 'https' }, payload: 'password=hickory' });
    assert.equal(login.statusCode, 302);
    assert.match(String(login.headers['set-cookie']), /^hickory_admin=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Max-Age=28800; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  } finally {
    await app.close();
  }
});

test('HICKORY_SESSION_SECRET rotation: a cookie signed with the old secret opens while it is listed second, not once it is gone', async () => {
  const [fresh, old] = ['n'.repeat(40), 'o'.repeat(40)];
  const dir = await mkdtemp(join(tmpdir(), 'hickory-showcase-rotation-'));
  const location = join(dir, 'books.sqlite');
  const saved = process.env['HICKORY_SESSION_SECRET'];
  const withSecret = async (secret: string) => {
    process.env['HICKORY_SESSION_SECRET'] = secret;
    return createSandbox({ logger: false }, { location });
  };
  const apps = [await withSecret(old), await withSecret(`${fresh}, ${old}`), await withSecret(fresh)];
  try {
    const [first, rotated, last] = apps as [(typeof apps)[0], (typeof apps)[0], (typeof apps)[0]];
    const login = await first.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=hickory' });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    assert.equal((await rotated.inject({ url: '/admin/', headers: { cookie } })).statusCode, 200);
    assert.equal((await last.inject({ url: '/admin/', headers: { cookie } })).statusCode, 401);
    // The rotated instance signs with the new secret: its cookies open the last one.
    const again = await rotated.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=hickory' });
    const renewed = String(again.headers['set-cookie']).split(';')[0]!;
    assert.equal((await last.inject({ url: '/admin/', headers: { cookie: renewed } })).statusCode, 200);
  } finally {
    if (saved === undefined) delete process.env['HICKORY_SESSION_SECRET'];
    else process.env['HICKORY_SESSION_SECRET'] = saved;
    for (const app of apps) await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});
