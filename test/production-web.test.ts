// @hickory/cors and @hickory/security-headers in a whole app: createApp()'s `plugins` (options
// included), dispatch, Pecan hooks, static files and error pages.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { abort, corsPlugin, createApp, createKernel, definePlugin, dispatchPlugin, expose, Hook, securityHeadersPlugin, staticPlugin, type App } from '@hickory/app';

const APP = 'http://127.0.0.1:5173';
let dir: string;
const seen: string[] = [];

class Recorder extends Hook {
  override on_route() {
    seen.push('on_route');
  }
}

class BooksController {
  @expose('json') index() {
    seen.push('handler');
    return [{ id: 1, title: 'Dune' }];
  }

  @expose('json') locked() {
    abort(403, 'not yours');
  }
}

class RootController {
  books = new BooksController();
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-production-web-'));
  await writeFile(join(dir, 'site.css'), 'body { color: teal; }\n');
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function app(): App {
  return createApp({
    root: new RootController(),
    logger: false,
    static_root: dir,
    hooks: [new Recorder()],
    plugins: [
      [corsPlugin, { origin: [APP], credentials: true, exposedHeaders: ['ETag'] }],
      [securityHeadersPlugin, { xFrameOptions: { action: 'deny' } }],
    ],
  });
}

test("createApp's plugins: options reach both plugins; a preflight runs neither on_route hooks nor the handler", async () => {
  const served = app();
  seen.length = 0;
  const pre = await served.inject({ method: 'OPTIONS', url: '/books/', headers: { origin: APP, 'access-control-request-method': 'DELETE' } });
  assert.equal(pre.statusCode, 204);
  assert.equal(pre.headers['access-control-allow-origin'], APP);
  assert.equal(pre.headers['access-control-allow-credentials'], 'true');
  assert.equal(pre.headers['x-frame-options'], 'DENY');
  assert.deepEqual(seen, []);
  const res = await served.inject({ url: '/books/', headers: { origin: APP } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), [{ id: 1, title: 'Dune' }]);
  assert.equal(res.headers['access-control-allow-origin'], APP);
  assert.equal(res.headers['access-control-expose-headers'], 'ETag');
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.deepEqual(seen, ['on_route', 'handler']);
  await served.close();
});

test('static files, a 404 page and an abort(403) carry both plugins\' headers', async () => {
  const served = app();
  const file = await served.inject({ url: '/site.css', headers: { origin: APP } });
  assert.equal(file.statusCode, 200);
  assert.equal(file.body, 'body { color: teal; }\n');
  for (const res of [file, await served.inject({ url: '/missing', headers: { origin: APP } }), await served.inject({ url: '/books/locked', headers: { origin: APP } })]) {
    assert.equal(res.headers['access-control-allow-origin'], APP);
    assert.equal(res.headers['vary'], 'Origin');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(String(res.headers['content-security-policy']), /^default-src 'self';/);
  }
  const other = await served.inject({ url: '/site.css', headers: { origin: 'http://127.0.0.1:9999' } });
  assert.equal(other.headers['access-control-allow-origin'], undefined);
  assert.equal(other.headers['cross-origin-resource-policy'], 'same-origin');
  await served.close();
});

test('createKernel().use(plugin, options) takes the same options', async () => {
  const kernel = await createKernel({ root: new RootController(), logger: false })
    .use(dispatchPlugin)
    .use(staticPlugin)
    .use(corsPlugin, { origin: '*' })
    .use(securityHeadersPlugin, { contentSecurityPolicy: false })
    .ready();
  const res = await kernel.inject({ url: '/books/', headers: { origin: APP } });
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(res.headers['content-security-policy'], undefined);
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  await kernel.close();
});

test('a handler cut off by handler_timeout: the 503 carries both plugins\' headers', async () => {
  let release: (() => void) | undefined;
  const slow = definePlugin({
    name: 'test-slow',
    apply(kernel) {
      kernel.hooks.route.tap('test-slow', () => ({ target: 'slow', handle: () => new Promise<string>((done) => (release = () => done('late'))) }));
    },
  });
  const kernel = await createKernel({ logger: false, handler_timeout: 50 }).use(slow).use(corsPlugin, { origin: [APP] }).use(securityHeadersPlugin).ready();
  const res = await kernel.inject({ url: '/', headers: { origin: APP } });
  assert.equal(res.statusCode, 503);
  assert.equal(res.headers['access-control-allow-origin'], APP);
  assert.equal(res.headers['vary'], 'Origin');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  release?.();
  await kernel.close();
});
