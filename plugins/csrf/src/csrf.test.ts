import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose, when } from '@hickory/dispatch';
import { csrfPlugin, CSRF_ERRORS, type CsrfOptions } from './index.ts';

const calls: string[] = [];

class Root {
  @expose('json') update() {
    calls.push('update');
    return { done: true };
  }
  @expose({ csrf: false }) hook() {
    calls.push('hook');
    return 'hooked';
  }
  @expose({ generic: true, csrf: false }) items() {
    return 'items';
  }
  @when('items', { method: 'POST' }) items_post() {
    calls.push('items_post');
    return 'posted';
  }
  @expose({ csrf: true }) explicit() {
    calls.push('explicit');
    return 'explicit';
  }
}

function app(options?: CsrfOptions, config: Record<string, unknown> = {}): Kernel {
  return createKernel({ root: new Root(), logger: false, ...config }).use(dispatchPlugin).use(csrfPlugin, options);
}

async function post(kernel: Kernel, headers: Record<string, string>, url = '/update', method = 'POST') {
  calls.length = 0;
  const res = await kernel.inject({ method, url, headers: { host: 'app.example', ...headers }, payload: 'a=1' });
  return { status: res.statusCode, body: res.body, calls: [...calls] };
}

test('CSRF_ERRORS has exactly 2 codes', () => {
  assert.equal(Object.keys(CSRF_ERRORS).length, 2);
});

test('Sec-Fetch-Site: same-origin and none pass; cross-site and same-site are refused with 403 before the handler', async () => {
  const kernel = app();
  assert.deepEqual(await post(kernel, { 'sec-fetch-site': 'same-origin' }), { status: 200, body: '{"done":true}', calls: ['update'] });
  assert.deepEqual(await post(kernel, { 'sec-fetch-site': 'none' }), { status: 200, body: '{"done":true}', calls: ['update'] });
  for (const site of ['cross-site', 'same-site', 'garbage']) {
    const refused = await post(kernel, { 'sec-fetch-site': site, origin: 'https://evil.example', accept: 'application/json' });
    assert.equal(refused.status, 403, site);
    assert.deepEqual(refused.calls, [], site);
    assert.deepEqual(JSON.parse(refused.body), { code: 403, title: 'Forbidden', description: `Cross-origin POST refused (Sec-Fetch-Site: ${site}): this site accepts such requests only from its own pages.` });
  }
  // Sec-Fetch-Site wins over a matching Origin.
  assert.equal((await post(kernel, { 'sec-fetch-site': 'cross-site', origin: 'http://app.example' })).status, 403);
  await kernel.close();
});

test('without Sec-Fetch-Site, Origin is compared with the request host; neither header is a non-browser client, allowed', async () => {
  const kernel = app();
  assert.equal((await post(kernel, { origin: 'http://app.example' })).status, 200);
  assert.equal((await post(kernel, { origin: 'https://app.example' })).status, 200); // the scheme is not compared, as in Go
  assert.equal((await post(kernel, { origin: 'https://app.example', host: 'app.example:443' })).status, 200);
  assert.equal((await post(kernel, { origin: 'http://app.example:8080' })).status, 403);
  assert.equal((await post(kernel, { origin: 'http://evil.example' })).status, 403);
  assert.equal((await post(kernel, { origin: 'null' })).status, 403);
  assert.deepEqual(await post(kernel, {}), { status: 200, body: '{"done":true}', calls: ['update'] });
  await kernel.close();
});

test('the refusal comes before the body is read: an oversized body from another site is a 403, not a 413', async () => {
  const kernel = app(undefined, { body_limit: 16 });
  const send = (payload: string, site: string) =>
    kernel.inject({ method: 'POST', url: '/update', payload, headers: { host: 'app.example', 'content-type': 'application/json', 'sec-fetch-site': site } });
  assert.equal((await send(JSON.stringify({ a: 'x'.repeat(100) }), 'cross-site')).statusCode, 403);
  assert.equal((await send(JSON.stringify({ a: 'x'.repeat(100) }), 'same-origin')).statusCode, 413);
  await kernel.close();
});

test('every method but GET, HEAD and OPTIONS is checked', async () => {
  const kernel = app();
  for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) assert.equal((await post(kernel, { 'sec-fetch-site': 'cross-site' }, '/update', method)).status, 403, method);
  for (const method of ['GET', 'HEAD']) assert.equal((await post(kernel, { 'sec-fetch-site': 'cross-site' }, '/update', method)).status, 200, method);
  await kernel.close();
});

test('behind a trusted proxy the forwarded host is the request own host', async () => {
  const kernel = app(undefined, { trust_proxy: true });
  assert.equal((await post(kernel, { origin: 'https://shop.example', 'x-forwarded-host': 'shop.example' })).status, 200);
  assert.equal((await post(kernel, { origin: 'https://app.example', 'x-forwarded-host': 'shop.example' })).status, 403);
  await kernel.close();
  // Untrusted, the header is ignored.
  const direct = app();
  assert.equal((await post(direct, { origin: 'https://shop.example', 'x-forwarded-host': 'shop.example' })).status, 403);
  await direct.close();
});

test('trustedOrigins are let through; @expose({ csrf: false }) exempts a handler (and a generic method its when() handlers)', async () => {
  const kernel = app({ trustedOrigins: ['https://sso.example'] });
  assert.deepEqual(await post(kernel, { 'sec-fetch-site': 'cross-site', origin: 'https://sso.example' }), { status: 200, body: '{"done":true}', calls: ['update'] });
  assert.deepEqual(await post(kernel, { origin: 'https://sso.example' }), { status: 200, body: '{"done":true}', calls: ['update'] });
  assert.equal((await post(kernel, { 'sec-fetch-site': 'cross-site', origin: 'https://sso.example:8443' })).status, 403);
  assert.deepEqual(await post(kernel, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, '/hook'), { status: 200, body: 'hooked', calls: ['hook'] });
  assert.deepEqual(await post(kernel, { 'sec-fetch-site': 'cross-site' }, '/items'), { status: 200, body: 'posted', calls: ['items_post'] });
  const explicit = await post(kernel, { 'sec-fetch-site': 'cross-site' }, '/explicit');
  assert.deepEqual([explicit.status, explicit.calls], [403, []]);
  await kernel.close();
});

test('an unsafe cross-site request that reaches no handler is refused with the same 403, a same-origin one keeps its 404', async () => {
  const kernel = app();
  const missing = await post(kernel, { 'sec-fetch-site': 'cross-site', accept: 'application/json' }, '/nowhere');
  assert.equal(missing.status, 403);
  assert.match(missing.body, /Cross-origin POST refused \(Sec-Fetch-Site: cross-site\)/);
  assert.equal((await post(kernel, { 'sec-fetch-site': 'same-origin' }, '/nowhere')).status, 404);
  assert.equal((await post(kernel, {}, '/nowhere')).status, 404);
  await kernel.close();
});

test('options are checked as the plugin is applied (use(), or ready() where the kernel defers them)', async () => {
  const use = (options: unknown) => async () => {
    const kernel = createKernel({ logger: false });
    try {
      await kernel.use(csrfPlugin, options as CsrfOptions).ready();
    } finally {
      await kernel.close();
    }
  };
  await assert.rejects(use({ trusted: [] }), { code: 'HICKORY_ERR_CSRF_OPTION', message: 'csrfPlugin option "trusted" is unknown (known: trustedOrigins).' });
  await assert.rejects(use({ trustedOrigins: 'https://a.example' }), { code: 'HICKORY_ERR_CSRF_OPTION' });
  await assert.rejects(use({ trustedOrigins: ['https://a.example/'] }), { code: 'HICKORY_ERR_CSRF_TRUSTED_ORIGIN', message: /"https:\/\/a.example\/" .*browsers would send "https:\/\/a.example"/ });
  await assert.rejects(use({ trustedOrigins: ['https://A.example'] }), { code: 'HICKORY_ERR_CSRF_TRUSTED_ORIGIN' });
  await assert.rejects(use({ trustedOrigins: ['sso.example'] }), { code: 'HICKORY_ERR_CSRF_TRUSTED_ORIGIN', message: /does not parse as a URL/ });
  await assert.rejects(use({ trustedOrigins: ['ftp://a.example'] }), { code: 'HICKORY_ERR_CSRF_TRUSTED_ORIGIN', message: /scheme ftp: is not http or https/ });
  await assert.doesNotReject(use({ trustedOrigins: ['https://a.example', 'http://127.0.0.1:8080'] }));
  assert.throws(() => expose({ csrf: 'no' as never }), { code: 'HICKORY_ERR_DISPATCH_EXPOSE_ARGS', message: /`csrf` must be true or false/ });
});
