// debug: true — an unhandled error answers a page with the stack (at the TypeScript line), the
// request with its credentials masked, the route walked and the hooks run; off, or in production,
// the plain 500.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, expose, Hook } from '@hickory/app';
import type { Logger } from '@hickory/core';

class AuditHook extends Hook {
  override before() {}
}

class Admin {
  @expose() broken(): never {
    throw new TypeError('the <bug> is here');
  }
  @expose() missing(): never {
    throw new Error('unused');
  }
}

class Root {
  admin = new Admin();
}

function warnings(): { logger: Logger; warned: string[] } {
  const warned: string[] = [];
  return { warned, logger: { info() {}, warn: (message: string) => void warned.push(message), error() {} } };
}

const HEADERS = { cookie: 'sid=secret-session', authorization: 'Bearer secret-token', accept: 'text/html' };

test('debug: true shows the error, its stack at this file\'s line, the request with secrets masked, the route and the hooks', async () => {
  const app = createApp({ root: new Root(), debug: true, hooks: [new AuditHook()], logger: false });
  try {
    const res = await app.inject({ url: '/admin/broken?page=2', headers: HEADERS });
    assert.equal(res.statusCode, 500);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.body;
    assert.match(body, /<h1>TypeError: the &lt;bug&gt; is here<\/h1>/);
    // Node maps the stack to the TypeScript source: the throw is on line 15 of this file.
    assert.match(body, /debug-page\.test\.ts:15:\d+/);
    assert.match(body, /<tr><th>url<\/th><td>\/admin\/broken\?page=2<\/td><\/tr>/);
    assert.match(body, /<tr><th>cookie<\/th><td>••• \(masked, 18 characters\)<\/td><\/tr>/);
    assert.match(body, /<tr><th>authorization<\/th><td>••• \(masked, 19 characters\)<\/td><\/tr>/);
    assert.doesNotMatch(body, /secret-session|secret-token/);
    assert.match(body, /<h2>Route walked<\/h2><table><tr><th>path<\/th><td>\/admin\/broken<\/td><\/tr><tr><th>controllers walked<\/th><td>Root → Admin<\/td><\/tr><tr><th>handler<\/th><td>Admin\.broken<\/td><\/tr><\/table>/);
    assert.match(body, /<h2>Hooks run<\/h2><table><tr><th>hooks<\/th><td>AuditHook<\/td><\/tr><tr><th>phase reached<\/th><td>failed<\/td><\/tr><\/table>/);
    // An abort is not a crash: its own status and body, as without debug.
    const notFound = await app.inject('/admin/nothing-here');
    assert.equal(notFound.statusCode, 404);
    assert.doesNotMatch(notFound.body, /Stack/);
  } finally {
    await app.close();
  }
});

test('debug off (the default): the plain 500, no stack, no request details', async () => {
  const app = createApp({ root: new Root(), logger: false });
  try {
    const res = await app.inject({ url: '/admin/broken', headers: HEADERS });
    assert.equal(res.statusCode, 500);
    assert.doesNotMatch(res.body, /the &lt;bug&gt;|the <bug>|debug-page\.test\.ts|Route walked/);
  } finally {
    await app.close();
  }
});

test('debug: true with NODE_ENV=production is refused with a warning: the plain 500', async () => {
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  const { logger, warned } = warnings();
  const app = createApp({ root: new Root(), debug: true, logger });
  try {
    await app.ready();
    assert.deepEqual(warned.filter((w) => w.startsWith('debug: true')), [
      'debug: true is refused because NODE_ENV is "production", not a development setting (unset, "development" or "test"): an unhandled error answers the plain 500 (the debug page shows stacks and request details)',
    ]);
    const res = await app.inject({ url: '/admin/broken', headers: HEADERS });
    assert.equal(res.statusCode, 500);
    assert.doesNotMatch(res.body, /the &lt;bug&gt;|debug-page\.test\.ts/);
  } finally {
    await app.close();
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
});

test('a bad debug value fails at ready(), naming the key', async () => {
  const app = createApp({ root: new Root(), debug: 'yes' as unknown as boolean, logger: false });
  await assert.rejects(app.ready(), { code: 'HICKORY_ERR_CONFIG_VALUE', message: /"debug"/ });
});
