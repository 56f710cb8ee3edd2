import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abort, createKernel } from './index.ts';
import { handle } from './fixtures/harness.ts';

test('request.cookies decodes the Cookie header into an object without a prototype', async () => {
  let seen: Record<string, string> = {};
  const app = createKernel({ logger: false }).use(handle((request) => void (seen = request.cookies)));
  await app.inject({ url: '/', headers: { cookie: 'theme=dark; name=Ad%C3%A9la; bad=%E0%A4%A; __proto__=x' } });
  assert.equal(Object.getPrototypeOf(seen), null);
  assert.deepEqual({ ...seen }, { theme: 'dark', name: 'Adéla', bad: '%E0%A4%A', ['__proto__']: 'x' });
  await app.inject('/');
  assert.deepEqual({ ...seen }, {});
  await app.close();
});

test('response.set_cookie and delete_cookie write Set-Cookie headers with safe defaults', async () => {
  const app = createKernel({ logger: false }).use(
    handle((request, response) => {
      if (request.path === '/bad') response.set_cookie('bad name', 'x');
      if (request.path === '/denied') {
        response.set_cookie('kept', 'no');
        abort(401);
      }
      response.set_cookie('session', 'a b;c', { max_age: 3600, secure: true });
      response.set_cookie('theme', 'dark', { httponly: false, samesite: 'strict', path: '/app' });
      response.delete_cookie('old');
      return 'ok';
    }),
  );
  const res = await app.inject('/');
  assert.deepEqual(res.headers['set-cookie'], [
    'session=a%20b%3Bc; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax',
    'theme=dark; Path=/app; SameSite=Strict',
    'old=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
  ]);
  const errors: string[] = [];
  const logged = createKernel({ logger: { info() {}, warn() {}, error: (m: string, e?: unknown) => void errors.push((e as Error).message) } }).use(
    handle((_request, response) => response.set_cookie('bad name', 'x')),
  );
  assert.equal((await logged.inject('/')).statusCode, 500);
  assert.match(errors[0]!, /^Cannot set the cookie "bad name": /);
  // What a failed handler began is not committed: a 401 carries no cookie set before it.
  const denied = await app.inject('/denied');
  assert.equal(denied.statusCode, 401);
  assert.equal(denied.headers['set-cookie'], undefined);
  await app.close();
  await logged.close();
});

test('a redirect keeps the cookies set before it (signing in, then redirecting)', async () => {
  const { redirect } = await import('./index.ts');
  const app = createKernel({ logger: false }).use(
    handle((_request, response) => {
      response.set_cookie('session', 'abc');
      return redirect('/home');
    }),
  );
  const res = await app.inject('/');
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, '/home');
  assert.equal(res.headers['set-cookie'], 'session=abc; Path=/; HttpOnly; SameSite=Lax');
  await app.close();
});
