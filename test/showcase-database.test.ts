// The showcase on SQLite: one transaction per request (a write that fails is not kept), the admin
// pages behind `secure` and a @hickory/session session kept in the database, and data that
// outlives a restart of `hickory serve`.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createSandbox } from '@hickory/sandbox/app';
import { run, serveFixture } from './fixtures/cli/harness.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

// The sessions the showcase's SQLite file holds (@hickory/session's sqlStore table).
function storedSessions(file: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT id, data FROM hickory_sessions ORDER BY id').all();
  } finally {
    db.close();
  }
}

test('/library/: an added book is kept; a write followed by a failure is rolled back', async () => {
  const app = await createSandbox({ logger: false });
  try {
    const added = await app.inject({ method: 'POST', url: '/library/', headers: form, payload: 'name=Dune' });
    assert.equal(added.statusCode, 302);
    assert.equal(added.headers.location, '/library/');
    const failed = await app.inject({ method: 'POST', url: '/library/write_then_fail', headers: form, payload: 'name=Ghost' });
    assert.equal(failed.statusCode, 409);
    // The site's error page (config errors) shows the message, escaped.
    assert.match(failed.body, /<h1>409 · Conflict<\/h1>\n<p>Book 2 \(&#34;Ghost&#34;\) was written, then this request failed: its transaction was rolled back/);
    const page = await app.inject('/library/');
    assert.match(page.body, /<p id="count">1 book in the database\.<\/p>/);
    assert.match(page.body, /<li>1: Dune<\/li>/);
    assert.doesNotMatch(page.body, /Ghost/);
    assert.deepEqual((await app.inject('/books.json')).json(), [{ id: '1', name: 'Dune' }]);
    // The id the rolled-back insert took is not reused by SQLite's AUTOINCREMENT… nor kept.
    const next = await app.inject({ method: 'POST', url: '/library/', headers: form, payload: 'name=Emma' });
    assert.equal(next.statusCode, 302);
    assert.match((await app.inject('/library/')).body, /<li>2: Emma<\/li>/);
  } finally {
    await app.close();
  }
});

test('/admin/: 401 with the login form until signed in; the session cookie opens it; a forged one does not; logout is a POST', async () => {
  const app = await createSandbox({ logger: false });
  try {
    await app.inject({ method: 'POST', url: '/library/', headers: form, payload: 'name=Dune' });
    for (const url of ['/admin/', '/admin/logout', '/admin/delete/1', '/admin/no/such/page']) {
      const refused = await app.inject(url);
      assert.equal(refused.statusCode, 401, url);
      assert.match(refused.body, /<form method="post" action="\/admin\/login" id="login-form">/, url);
    }
    const wrong = await app.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=nope' });
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /Wrong password\./);
    assert.equal(wrong.headers['set-cookie'], undefined);

    const signedIn = await app.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=hickory' });
    assert.equal(signedIn.statusCode, 302);
    assert.equal(signedIn.headers.location, '/admin/');
    const cookie = String(signedIn.headers['set-cookie']);
    // @hickory/session's cookie: a random id (32 bytes, base64url) and its HMAC-SHA256 (43 more).
    assert.match(cookie, /^hickory_admin=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; Max-Age=28800; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = cookie.split(';')[0]!;

    const admin = await app.inject({ url: '/admin/', headers: { cookie: session } });
    assert.equal(admin.statusCode, 200);
    assert.match(admin.body, /<td>1<\/td><td>Dune<\/td>/);
    assert.match(admin.body, /<form method="post" action="\/admin\/logout"><button type="submit" id="logout">Sign out<\/button><\/form>/);
    // One character of the id changed: its signature no longer verifies.
    const forged = session.replace(/=(.)/, (_m, c: string) => `=${c === 'A' ? 'B' : 'A'}`);
    assert.notEqual(forged, session);
    assert.equal((await app.inject({ url: '/admin/', headers: { cookie: forged } })).statusCode, 401);
    assert.equal((await app.inject({ url: '/admin/', headers: { cookie: 'hickory_admin=admin.99999999999999.x' } })).statusCode, 401);

    const deleted = await app.inject({ method: 'POST', url: '/admin/delete/1', headers: { cookie: session } });
    assert.equal(deleted.statusCode, 302);
    assert.doesNotMatch((await app.inject('/library/')).body, /Dune/);
    const viaGet = await app.inject({ url: '/admin/logout', headers: { cookie: session } });
    assert.equal(viaGet.statusCode, 405);
    assert.equal(viaGet.headers['allow'], 'POST');
    assert.equal(viaGet.headers['set-cookie'], undefined);
    assert.equal((await app.inject({ url: '/admin/', headers: { cookie: session } })).statusCode, 200);
    const out = await app.inject({ method: 'POST', url: '/admin/logout', headers: { cookie: session } });
    assert.equal(out.statusCode, 302);
    assert.equal(out.headers.location, '/admin/login');
    assert.equal(out.headers['set-cookie'], 'hickory_admin=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax');
    // The cookie saved before the logout (validly signed) opens nothing any more: its session is gone.
    const after = await app.inject({ url: '/admin/', headers: { cookie: session } });
    assert.equal(after.statusCode, 401);
    assert.equal(after.headers['set-cookie'], undefined);
    assert.equal((await app.inject({ method: 'POST', url: '/admin/delete/2', headers: { cookie: session } })).statusCode, 401);
  } finally {
    await app.close();
  }
});

test('an admin session is the database\'s: two instances on one file share it, and a logout on one ends it on both', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-showcase-sessions-'));
  const location = join(dir, 'books.sqlite');
  const first = await createSandbox({ logger: false }, { location });
  const second = await createSandbox({ logger: false }, { location });
  try {
    const signedIn = await first.inject({ method: 'POST', url: '/admin/login', headers: form, payload: 'password=hickory' });
    assert.equal(signedIn.statusCode, 302);
    const session = String(signedIn.headers['set-cookie']).split(';')[0]!;
    // One row in sqlStore's table, keyed by the SHA-256 of the cookie's id: never the id itself.
    const id = session.slice('hickory_admin='.length, session.indexOf('.'));
    assert.deepEqual(storedSessions(location), [{ id: createHash('sha256').update(id).digest('base64url'), data: '{"user":"admin"}' }]);
    assert.equal((await second.inject({ url: '/admin/', headers: { cookie: session } })).statusCode, 200);
    const out = await second.inject({ method: 'POST', url: '/admin/logout', headers: { cookie: session } });
    assert.equal(out.statusCode, 302);
    assert.deepEqual(storedSessions(location), []);
    for (const app of [first, second]) assert.equal((await app.inject({ url: '/admin/', headers: { cookie: session } })).statusCode, 401);
  } finally {
    await first.close();
    await second.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('with NODE_ENV=production and no HICKORY_ADMIN_PASSWORD or HICKORY_SESSION_SECRET the showcase does not start, saying why', async () => {
  const saved = { NODE_ENV: process.env['NODE_ENV'], HICKORY_ADMIN_PASSWORD: process.env['HICKORY_ADMIN_PASSWORD'], HICKORY_SESSION_SECRET: process.env['HICKORY_SESSION_SECRET'] };
  const restore = () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  const message = /NODE_ENV is production but HICKORY_ADMIN_PASSWORD is not set: the showcase's \/admin\/ would open with the demo password "hickory"\. Set HICKORY_ADMIN_PASSWORD to a password of your own\./;
  try {
    delete process.env['HICKORY_ADMIN_PASSWORD'];
    delete process.env['HICKORY_SESSION_SECRET'];
    for (const value of ['production', ' Production ', 'PRODUCTION\n']) {
      process.env['NODE_ENV'] = value;
      await assert.rejects(createSandbox({ logger: false }), { message }, JSON.stringify(value));
    }
    // npm start: the process ends with the message, nothing served.
    process.env['NODE_ENV'] = 'production';
    const served = await run(['serve', 'sandbox/config.ts', '--port', '0']);
    assert.notEqual(served.code, 0);
    assert.match(served.stderr, message);
    assert.doesNotMatch(served.stdout, /hickory serving/);
    // A password of one's own, but the demo session secret: refused too.
    process.env['HICKORY_ADMIN_PASSWORD'] = 'a password of my own';
    await assert.rejects(createSandbox({ logger: false }), {
      message:
        "NODE_ENV is production but HICKORY_SESSION_SECRET is not set: the showcase's session cookies would be signed with its public demo secret. Set HICKORY_SESSION_SECRET to a random string of 32 characters or more, the same on every instance (`openssl rand -base64 32`).",
    });
    // A secret too short is refused whatever NODE_ENV says, naming the variable, not showing the secret.
    process.env['HICKORY_SESSION_SECRET'] = `${'n'.repeat(32)},too short`;
    await assert.rejects(createSandbox({ logger: false }), {
      message: 'HICKORY_SESSION_SECRET must be a secret of 32 characters or more, or a comma-separated list of them (the first signs, all verify): secret 2 of 2 has 9. Make one with `openssl rand -base64 32`.',
    });
    // Both of one's own, or another NODE_ENV: it starts.
    process.env['HICKORY_SESSION_SECRET'] = 's'.repeat(32);
    await (await createSandbox({ logger: false })).close();
    delete process.env['HICKORY_ADMIN_PASSWORD'];
    delete process.env['HICKORY_SESSION_SECRET'];
    process.env['NODE_ENV'] = 'productionish';
    await (await createSandbox({ logger: false })).close();
  } finally {
    restore();
  }
});

test('npm start keeps the books in a SQLite file: they are there after a restart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-showcase-db-'));
  const file = join(dir, 'books.sqlite');
  const previous = process.env['HICKORY_SANDBOX_DB'];
  process.env['HICKORY_SANDBOX_DB'] = file;
  try {
    const first = await serveFixture(['sandbox/config.ts', '--port', '0']);
    try {
      const res = await fetch(`${first.url}/library/`, { method: 'POST', headers: form, body: 'name=Persistent', redirect: 'manual' });
      assert.equal(res.status, 302);
    } finally {
      first.cli.stop();
      await first.cli.exited(10_000);
    }
    const second = await serveFixture(['sandbox/config.ts', '--port', '0']);
    try {
      // After the five books a new database starts with (npm start seeds it).
      const page = await (await fetch(`${second.url}/library/`)).text();
      assert.match(page, /<p id="count">6 books in the database\.<\/p>/);
      assert.match(page, /<li>5: Sense and Sensibility<\/li>\n  <li>6: Persistent<\/li>/);
    } finally {
      second.cli.stop();
      await second.cli.exited(10_000);
    }
  } finally {
    if (previous === undefined) delete process.env['HICKORY_SANDBOX_DB'];
    else process.env['HICKORY_SANDBOX_DB'] = previous;
    await rm(dir, { recursive: true, force: true });
  }
});

test('a write whose body is slow to arrive holds nothing: a write sent meanwhile is stored and answered first', async () => {
  const app = await createSandbox({ logger: false });
  const { url } = await app.listen({ port: 0 });
  const { port } = new URL(url);
  try {
    // A: routed, then its body arrives in two parts (its transaction begins only once it is read).
    const slow = connect(Number(port), '127.0.0.1');
    let answerA = '';
    slow.setEncoding('utf8').on('data', (chunk: string) => (answerA += chunk));
    await new Promise((done) => slow.once('connect', done));
    slow.write('POST /library/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\nname=');
    await new Promise((done) => setTimeout(done, 50));
    // B: answered while A's body is still on its way.
    const b = await fetch(`${url}/library/`, { method: 'POST', headers: form, body: 'name=Emma', redirect: 'manual' });
    assert.equal(b.status, 302);
    assert.equal(answerA, '');
    slow.end('Dune');
    await new Promise((done) => slow.once('close', done));
    assert.match(answerA, /^HTTP\/1\.1 302 /);
    const page = await (await fetch(`${url}/library/`)).text();
    assert.match(page, /<li>1: Emma<\/li>\n  <li>2: Dune<\/li>/);
  } finally {
    await app.close();
  }
});
