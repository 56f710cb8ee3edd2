import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, definePlugin, type CookieSigner } from './index.ts';
import { handle } from './fixtures/harness.ts';

// A signer of the kernel's slot that is not sessionPlugin's: the slot knows no algorithm.
const reversed: CookieSigner = {
  sign: (name, value) => `${value}~${[...`${name}${value}`].reverse().join('')}`,
  unsign(name, signed) {
    const cut = signed.lastIndexOf('~');
    const value = signed.slice(0, cut);
    return cut !== -1 && signed.slice(cut + 1) === [...`${name}${value}`].reverse().join('') ? value : undefined;
  },
};
const signing = definePlugin({
  name: 'signing',
  apply(kernel) {
    kernel.cookieSigner = reversed;
  },
});

test('kernel.cookieSigner, filled by a plugin, signs set_cookie({ signed: true }) and verifies request.signed_cookies', async () => {
  const app = createKernel({ logger: false })
    .use(signing)
    .use(
      handle((request, response) => {
        if (request.path === '/set') response.set_cookie('cart', '7', { signed: true, max_age: 60 });
        return JSON.stringify({ ...request.signed_cookies });
      }),
    );
  const set = await app.inject('/set');
  assert.equal(set.headers['set-cookie'], 'cart=7~7trac; Max-Age=60; Path=/; HttpOnly; SameSite=Lax');
  const read = await app.inject({ url: '/', headers: { cookie: 'cart=7~7trac; other=1~1rehto; forged=2~1degrof; plain=1; bad=2~x' } });
  assert.deepEqual(JSON.parse(read.body), { cart: '7', other: '1' });
  assert.throws(() => {
    app.cookieSigner = undefined;
  }, { code: 'HICKORY_ERR_USE_AFTER_READY' });
  await app.close();
});

test('without a signer, a signed cookie and request.signed_cookies throw HICKORY_ERR_COOKIE_SIGNER (a logged 500)', async () => {
  const app = createKernel({ logger: false }).use(
    handle((request, response) => {
      if (request.path === '/set') response.set_cookie('cart', '7', { signed: true });
      return JSON.stringify(request.signed_cookies);
    }),
  );
  assert.equal((await app.inject('/set')).statusCode, 500);
  assert.equal((await app.inject('/')).statusCode, 500);
  await app.close();
});
