import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, type Request, type Response } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { memoryStore, sessionPlugin, SESSION_ERRORS, type SessionStore } from './index.ts';
import { hmacSigner } from './signer.ts';
import { storeKey } from './request-session.ts';
import { OLD_SECRET, SECRET, sessionApp, setCookie } from './fixtures/app.ts';

// A memory store that counts its writes.
function countingStore(): SessionStore & { writes: string[] } {
  const inner = memoryStore();
  const writes: string[] = [];
  return {
    writes,
    sweepInterval: 0,
    get: (id) => inner.get(id),
    set: (id, data, expires) => (writes.push(`set ${data}`), inner.set(id, data, expires)),
    touch: (id, expires) => (writes.push('touch'), inner.touch(id, expires)),
    destroy: (id) => (writes.push(`destroy ${id}`), inner.destroy(id)),
    sweep: (now) => inner.sweep(now),
  };
}

test('SESSION_ERRORS has exactly 5 codes', () => {
  assert.equal(Object.keys(SESSION_ERRORS).length, 5);
});

test('a session is created when first written, read back from its cookie, and saved only when it changes', async () => {
  const store = countingStore();
  const app = sessionApp({ secret: SECRET, store });
  const untouched = await app.inject('/');
  assert.equal(untouched.body, 'home');
  assert.equal(untouched.headers['set-cookie'], undefined);

  const first = await app.inject('/count');
  assert.deepEqual(first.json(), { visits: 1 });
  const cookie = setCookie(first.headers['set-cookie'], 'sid')!;
  assert.match(cookie.value, /^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
  assert.equal(cookie.attributes, 'Max-Age=86400; Path=/; HttpOnly; SameSite=Lax');

  const second = await app.inject({ url: '/count', headers: { cookie: cookie.pair } });
  assert.deepEqual(second.json(), { visits: 2 });
  // The same session, saved with a new expiry: the same cookie, sent again with its Max-Age.
  assert.equal(setCookie(second.headers['set-cookie'], 'sid')?.value, cookie.value);

  const read = await app.inject({ url: '/read', headers: { cookie: cookie.pair } });
  assert.deepEqual(read.json(), { visits: 2 });
  // The store holds the id's SHA-256, never the id a browser presents.
  const id = cookie.value.split('.')[0]!;
  assert.equal(await store.get(id), undefined);
  assert.equal((await store.get(storeKey(id)))?.data, '{"visits":2}');
  // Read, not changed, not due: no write and no cookie.
  assert.equal(read.headers['set-cookie'], undefined);
  assert.deepEqual(store.writes, ['set {"visits":1}', 'set {"visits":2}']);
  await app.close();
});

test('a tampered, unsigned or unknown cookie is a fresh empty session, never an error', async () => {
  const app = sessionApp({ secret: SECRET });
  const made = setCookie((await app.inject('/count')).headers['set-cookie'], 'sid')!;
  const [id, mac] = made.value.split('.') as [string, string];
  const forged = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}.${mac}`;
  const unknown = hmacSigner([SECRET]).sign('sid', 'x'.repeat(43));
  for (const value of [forged, id, `${id}.`, `${id}.${mac}x`, unknown, '', '.', 'é'.repeat(90)]) {
    const res = await app.inject({ url: '/read', headers: { cookie: `sid=${encodeURIComponent(value)}` } });
    assert.equal(res.statusCode, 200, value);
    assert.deepEqual(res.json(), {}, value);
  }
  await app.close();
});

test('regenerate() gives a new id and destroys the old one; destroy() removes the session and its cookie', async () => {
  const store = countingStore();
  const app = sessionApp({ secret: SECRET, store });
  const before = setCookie((await app.inject('/count')).headers['set-cookie'], 'sid')!;
  const login = await app.inject({ url: '/login?user=ann', headers: { cookie: before.pair } });
  const after = setCookie(login.headers['set-cookie'], 'sid')!;
  assert.notEqual(after.value.split('.')[0], before.value.split('.')[0]);
  assert.deepEqual((await app.inject({ url: '/read', headers: { cookie: after.pair } })).json(), { visits: 1, user: 'ann' });
  // The id from before the sign-in names nothing any more.
  assert.deepEqual((await app.inject({ url: '/read', headers: { cookie: before.pair } })).json(), {});
  assert.equal(store.writes[1], `destroy ${storeKey(before.value.split('.')[0]!)}`);

  const logout = await app.inject({ url: '/logout', headers: { cookie: after.pair } });
  assert.equal(logout.body, 'out');
  const gone = setCookie(logout.headers['set-cookie'], 'sid')!;
  assert.equal(gone.value, '');
  assert.match(gone.attributes, /^Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
  assert.deepEqual((await app.inject({ url: '/read', headers: { cookie: after.pair } })).json(), {});
  await app.close();
});

test('an internal redirect keeps the session (loaded and saved once); destroy() wins over regenerate()', async () => {
  const store = countingStore();
  const app = sessionApp({ secret: SECRET, store });
  const made = await app.inject('/count');
  const cookie = setCookie(made.headers['set-cookie'], 'sid')!;
  const forwarded = await app.inject({ url: '/forward', headers: { cookie: cookie.pair } });
  assert.deepEqual(forwarded.json(), { visits: 1, forwarded: 'yes' });
  assert.deepEqual(store.writes, ['set {"visits":1}', 'set {"visits":1,"forwarded":"yes"}']);
  const both = await app.inject({ url: '/both', headers: { cookie: cookie.pair } });
  assert.equal(setCookie(both.headers['set-cookie'], 'sid')?.value, '');
  assert.deepEqual(store.writes.slice(2), [`destroy ${storeKey(cookie.value.split('.')[0]!)}`]);
  await app.close();
});

test('key rotation: the first secret signs, every secret verifies', async () => {
  const store = memoryStore();
  const old = sessionApp({ secret: OLD_SECRET, store });
  const oldCookie = setCookie((await old.inject('/put?key=a&value=1')).headers['set-cookie'], 'sid')!;
  const rotated = sessionApp({ secret: [SECRET, OLD_SECRET], store });
  assert.deepEqual((await rotated.inject({ url: '/read', headers: { cookie: oldCookie.pair } })).json(), { a: '1' });
  const newCookie = setCookie((await rotated.inject('/put?key=b&value=2')).headers['set-cookie'], 'sid')!;
  const [id] = newCookie.value.split('.') as [string];
  assert.equal(newCookie.value, hmacSigner([SECRET]).sign('sid', id));
  // Once the old secret is dropped, what it signed is refused.
  const dropped = sessionApp({ secret: SECRET, store });
  assert.deepEqual((await dropped.inject({ url: '/read', headers: { cookie: oldCookie.pair } })).json(), {});
  assert.deepEqual((await dropped.inject({ url: '/read', headers: { cookie: newCookie.pair } })).json(), { b: '2' });
  await Promise.all([old.close(), rotated.close(), dropped.close()]);
});

test('nothing is saved for a 5xx or a request cut off by handler_timeout; a 4xx saves', async () => {
  const store = countingStore();
  const app = sessionApp({ secret: SECRET, store }, { handler_timeout: 100 });
  const failed = await app.inject('/fails');
  assert.equal(failed.statusCode, 500);
  assert.equal(failed.headers['set-cookie'], undefined);
  const late = await app.inject('/slow');
  assert.equal(late.statusCode, 503);
  assert.equal(late.headers['set-cookie'], undefined);
  // The handler goes on after its 503 and changes the session: still nothing is saved.
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.deepEqual(store.writes, []);
  const refused = await app.inject('/refused');
  assert.equal(refused.statusCode, 404);
  assert.ok(setCookie(refused.headers['set-cookie'], 'sid'));
  assert.deepEqual(store.writes, ['set {"flash":"no such book"}']);
  await app.close();
});

test('rolling expiry: a session read after a tenth of its lifetime is touched, not rewritten, and its cookie sent again', async (t) => {
  const store = countingStore();
  const app = sessionApp({ secret: SECRET, store, cookie: { maxAge: 1000 } });
  let now = 1_800_000_000_000;
  t.mock.method(Date, 'now', () => now);
  const cookie = setCookie((await app.inject('/count')).headers['set-cookie'], 'sid')!;
  now += 50_000;
  const early = await app.inject({ url: '/', headers: { cookie: cookie.pair } });
  assert.equal(early.headers['set-cookie'], undefined);
  now += 60_000;
  const due = await app.inject({ url: '/', headers: { cookie: cookie.pair } });
  assert.equal(setCookie(due.headers['set-cookie'], 'sid')?.value, cookie.value);
  assert.deepEqual(store.writes, ['set {"visits":1}', 'touch']);
  // Past its lifetime since the last touch, it is gone.
  now += 1_000_001;
  assert.deepEqual((await app.inject({ url: '/read', headers: { cookie: cookie.pair } })).json(), {});
  await app.close();
});

test('signed cookies: set with { signed: true }, read from request.signed_cookies, absent when tampered', async () => {
  const app = sessionApp({ secret: SECRET });
  const res = await app.inject('/sign?value=7');
  const cart = setCookie(res.headers['set-cookie'], 'cart')!;
  assert.match(cart.value, /^7\.[A-Za-z0-9_-]{43}$/);
  assert.deepEqual((await app.inject({ url: '/signed', headers: { cookie: cart.pair } })).json(), { cart: '7' });
  const tampered = `cart=${encodeURIComponent(`8${cart.value.slice(1)}`)}`;
  assert.deepEqual((await app.inject({ url: '/signed', headers: { cookie: `${tampered}; plain=1` } })).json(), {});
  // A value signed for another cookie's name is refused under this one.
  assert.deepEqual((await app.inject({ url: '/signed', headers: { cookie: `other=${encodeURIComponent(cart.value)}` } })).json(), {});
  await app.close();
});

test('signed: true without a signer throws HICKORY_ERR_COOKIE_SIGNER, naming sessionPlugin', async () => {
  const errors: unknown[] = [];
  class Root {
    @expose() index() {
      return 'x';
    }
  }
  const logger = { error: (_message: string, ...details: unknown[]) => errors.push(...details), warn() {}, info() {} };
  const catcher = definePlugin({
    name: 'catch',
    apply(kernel) {
      kernel.hooks.onError.tap('catch', (error) => void errors.push(error));
    },
  });
  const app = createKernel({ root: new Root(), logger }).use(dispatchPlugin).use(catcher);
  app.hooks.beforeSend.tap('sign', (request, response) => {
    if (request.path === '/sign') response.set_cookie('cart', '7', { signed: true });
    if (request.path === '/read') response.headers['X-Read'] = Object.keys(request.signed_cookies).join();
  });
  const res = await app.inject('/sign');
  assert.equal(res.statusCode, 500);
  const error = errors.find((e) => (e as { code?: string }).code === 'HICKORY_ERR_COOKIE_SIGNER') as Error;
  assert.match(error.message, /^Cannot sign the cookie "cart" .*sessionPlugin from @hickory\/session/);
  errors.length = 0;
  assert.equal((await app.inject('/read')).statusCode, 500);
  assert.equal((errors.find((e) => (e as { code?: string }).code === 'HICKORY_ERR_COOKIE_SIGNER') as Error).message.slice(0, 58), 'Cannot sign the cookie request.signed_cookies (or read req');
  await app.close();
});

test('request.session read before the session plugin loaded it (a beforeRoute tap of a plugin used earlier) is a coded error; the options are checked as the plugin is applied', async () => {
  class Root {
    @expose() index() {
      return 'x';
    }
  }
  const seen: string[] = [];
  const early = definePlugin({
    name: 'early',
    apply(kernel) {
      kernel.hooks.beforeRoute.tap('early', (request) => {
        try {
          void request.session;
        } catch (error) {
          seen.push((error as { code: string }).code);
        }
      });
    },
  });
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(early).use(sessionPlugin, { secret: SECRET });
  assert.equal((await app.inject('/')).body, 'x');
  assert.deepEqual(seen, ['HICKORY_ERR_SESSION_UNAVAILABLE']);
  await app.close();

  // Thrown by apply(): at use(), or at ready() where the kernel defers plugin option errors there.
  const use = (options: unknown) => async () => {
    const kernel = createKernel({ logger: false });
    try {
      await kernel.use(sessionPlugin, options as never).ready();
    } finally {
      await kernel.close();
    }
  };
  await assert.rejects(use(undefined), { code: 'HICKORY_ERR_SESSION_SECRET' });
  await assert.rejects(use({ secret: 'short' }), { code: 'HICKORY_ERR_SESSION_SECRET', message: /Got a string of 5 characters\./ });
  await assert.rejects(use({ secret: [] }), { code: 'HICKORY_ERR_SESSION_SECRET' });
  await assert.rejects(use({ secret: SECRET, secrets: 1 }), { code: 'HICKORY_ERR_SESSION_OPTION', message: /"secrets" is unknown/ });
  await assert.rejects(use({ secret: SECRET, store: {} }), { code: 'HICKORY_ERR_SESSION_OPTION', message: /"store" has no get\(\) method/ });
  await assert.rejects(use({ secret: SECRET, cookie: { maxAge: 0 } }), { code: 'HICKORY_ERR_SESSION_OPTION', message: /"cookie.maxAge"/ });
  await assert.rejects(use({ secret: SECRET, cookie: { name: 'a b' } }), { code: 'HICKORY_ERR_SESSION_OPTION', message: /"cookie.name"/ });
  await assert.rejects(use({ secret: SECRET, cookie: { sameSite: 'none' } }), { code: 'HICKORY_ERR_SESSION_OPTION', message: /needs secure: true/ });
  await assert.rejects(use({ secret: SECRET, cookie: { max_age: 3 } }), { code: 'HICKORY_ERR_SESSION_OPTION', message: /"cookie.max_age" is unknown/ });
});

test('the cookie attributes follow the options, and Secure follows the request scheme by default', async () => {
  const app = sessionApp({ secret: SECRET, cookie: { name: 'app_sid', maxAge: 600, path: '/', domain: 'example.com', sameSite: 'strict', httpOnly: false } }, { trust_proxy: true });
  const plain = setCookie((await app.inject('/count')).headers['set-cookie'], 'app_sid')!;
  assert.equal(plain.attributes, 'Max-Age=600; Domain=example.com; Path=/; SameSite=Strict');
  const https = setCookie((await app.inject({ url: '/count', headers: { 'x-forwarded-proto': 'https' } })).headers['set-cookie'], 'app_sid')!;
  assert.equal(https.attributes, 'Max-Age=600; Domain=example.com; Path=/; Secure; SameSite=Strict');
  await app.close();
});

test('with use_context_locals: false, handlers get the session and sign cookies through their own arguments', async () => {
  class Explicit {
    @expose() index(request: Request, response: Response) {
      request.session['n'] = Number(request.session['n'] ?? 0) + 1;
      response.set_cookie('seen', String(request.session['n']), { signed: true });
      return `${String(request.session['n'])} ${request.signed_cookies['seen'] ?? '-'}`;
    }
  }
  const app = createKernel({ root: new Explicit(), logger: false, use_context_locals: false }).use(dispatchPlugin).use(sessionPlugin, { secret: SECRET });
  const first = await app.inject('/');
  assert.equal(first.body, '1 -');
  const cookie = ['sid', 'seen'].map((name) => setCookie(first.headers['set-cookie'], name)!.pair).join('; ');
  assert.equal((await app.inject({ url: '/', headers: { cookie } })).body, '2 1');
  await app.close();
});
