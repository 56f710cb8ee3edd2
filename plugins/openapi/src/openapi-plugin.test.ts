import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openapiPlugin, type OpenapiPluginOptions } from './index.ts';

class Books {
  @expose('json') index() { return []; }
  @expose('json') show(id: string) { return { id }; }
}

class Root {
  books = new Books();
  @expose() index() { return 'home'; }
}

async function app(options?: OpenapiPluginOptions) {
  const kernel = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(openapiPlugin, options);
  await kernel.ready();
  return kernel;
}

const dist = (name: string) => createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`);

test('GET /openapi.json: the app\'s document, valid OpenAPI 3.1, with its title and version', async () => {
  const kernel = await app({ title: 'Books', version: '1.2.0' });
  const res = await kernel.inject('/openapi.json');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'no-cache');
  const doc = res.json() as { info: unknown; paths: Record<string, unknown> };
  assert.deepEqual(doc.info, { title: 'Books', version: '1.2.0' });
  // GET fills show(id) from a segment; POST and the others from the body, at /books/show.
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/', '/books/', '/books/index', '/books/show', '/books/show/{id}', '/index']);
  const result = await new Validator().validate(doc as Record<string, unknown>);
  assert.equal(result.valid, true, JSON.stringify(result.errors));
});

test('the document revalidates: its ETag answers 304, HEAD has the headers without the body', async () => {
  const kernel = await app();
  const first = await kernel.inject('/openapi.json');
  const etag = first.headers['etag'] as string;
  assert.match(etag, /^"[\w-]{27}"$/);
  const again = await kernel.inject({ url: '/openapi.json', headers: { 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  const head = await kernel.inject({ method: 'HEAD', url: '/openapi.json' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers['content-length'], String(first.rawPayload.length));
  assert.equal(head.body, '');
});

test('GET /docs: the page, pointing Swagger UI at the document, with its files from swagger-ui-dist', async () => {
  const kernel = await app();
  for (const url of ['/docs', '/docs/']) {
    const page = await kernel.inject(url);
    assert.equal(page.statusCode, 200, url);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.body, /<script src="\/docs\/swagger-ui-bundle\.js"><\/script>/);
    assert.match(page.body, /<link rel="stylesheet" href="\/docs\/swagger-ui\.css">/);
  }
  const init = await kernel.inject('/docs/initializer.js');
  assert.equal(init.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.match(init.body, /url: "\/openapi\.json"/);
  assert.match(init.body, /validatorUrl: null/);
  // Every operation in the page, never only those in view (Swagger UI's list from 150 entries on).
  assert.match(init.body, /plugins: \[allOperations\]/);
  assert.match(init.body, /components: \{ operations: Operations \}/);
  const bundle = await kernel.inject('/docs/swagger-ui-bundle.js');
  assert.equal(bundle.statusCode, 200);
  assert.equal(bundle.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(bundle.headers['cache-control'], 'public, max-age=86400');
  assert.deepEqual(bundle.rawPayload, await readFile(dist('swagger-ui-bundle.js')));
  const css = await kernel.inject('/docs/swagger-ui.css');
  assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.equal(css.headers['x-content-type-options'], 'nosniff');
  const cached = await kernel.inject({ url: '/docs/swagger-ui.css', headers: { 'if-none-match': css.headers['etag'] as string } });
  assert.equal(cached.statusCode, 304);
});

test('only the page\'s files are served: another file of the package, a traversal or another method go on to routing', async () => {
  const kernel = await app();
  for (const url of ['/docs/package.json', '/docs/swagger-ui.js.map', '/docs/../package.json', '/docs/%2e%2e/package.json', '/docsx', '/docs/index.html']) {
    assert.equal((await kernel.inject(url)).statusCode, 404, url);
  }
  assert.equal((await kernel.inject({ method: 'POST', url: '/openapi.json' })).statusCode, 404);
  assert.equal((await kernel.inject('/books/show/7')).body, '{"id":"7"}');
});

test('other paths, or none: { json, ui } move or turn off each part', async () => {
  const kernel = await app({ json: '/api/openapi.json', ui: '/api/docs/' });
  assert.equal((await kernel.inject('/openapi.json')).statusCode, 404);
  assert.equal((await kernel.inject('/api/openapi.json')).statusCode, 200);
  assert.match((await kernel.inject('/api/docs/initializer.js')).body, /url: "\/api\/openapi\.json"/);
  assert.match((await kernel.inject('/api/docs')).body, /src="\/api\/docs\/swagger-ui-bundle\.js"/);
  const none = await app({ json: false, ui: false });
  assert.equal((await none.inject('/openapi.json')).statusCode, 404);
  assert.equal((await none.inject('/docs')).statusCode, 404);
});

test('used alone, it brings dispatchPlugin: the document lists the tree', async () => {
  const kernel = createKernel({ root: new Root(), logger: false }).use(openapiPlugin);
  await kernel.ready();
  assert.ok('/books/show/{id}' in (((await kernel.inject('/openapi.json')).json() as { paths: object }).paths));
  assert.equal((await kernel.inject('/books/show/3')).body, '{"id":"3"}');
});

test('bad options fail ready(), naming the option and the fix', async () => {
  const use = (options: unknown) => createKernel({ root: new Root(), logger: false }).use(openapiPlugin, options as OpenapiPluginOptions).ready();
  await assert.rejects(use({ path: '/x' }), { code: 'HICKORY_ERR_OPENAPI_OPTION', message: 'openapiPlugin option "path" is unknown (known: json, ui, title, version).' });
  await assert.rejects(use({ json: 'openapi.json' }), { code: 'HICKORY_ERR_OPENAPI_OPTION', message: /"json" must be a path such as "\/openapi.json"/ });
  await assert.rejects(use({ ui: '/docs?x=1' }), { code: 'HICKORY_ERR_OPENAPI_OPTION', message: /"ui" must be a path/ });
  await assert.rejects(use({ json: '/docs/openapi.json' }), { code: 'HICKORY_ERR_OPENAPI_OPTION', message: /"json" must not be \/docs or below it/ });
  await assert.rejects(use({ title: 3 }), { code: 'HICKORY_ERR_OPENAPI_OPTION', message: /"title" must be a non-empty string/ });
});
