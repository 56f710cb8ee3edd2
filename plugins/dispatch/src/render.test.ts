import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { createKernel, definePlugin, response, Response } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';

// A stand-in renderer on the public `render` hook: `tpl` templates show their namespace.
const fakeRenderer = definePlugin({
  name: 'fake-renderer',
  apply(kernel) {
    kernel.hooks.render.for('tpl').tap('fake-renderer', (job) => `<${job.template}>${JSON.stringify(job.namespace)}`);
  },
});

class Root {
  @expose() html() { return '<h1>Hi</h1>'; }
  @expose('json') data() { return { a: 1 }; }
  @expose('json') nothing() { return null; }
  @expose('json') empty() { return undefined; }
  @expose() silent() {}
  @expose('page.tpl') page() { return { title: 'T' }; }
  @expose('page.tpl') bare() {}
  @expose('tpl:other') prefixed() { return { x: 1 }; }
  @expose('page.tpl', { content_type: 'application/xml' }) feed() { return { items: [] }; }
  @expose({ content_type: 'text/plain' }) plain() { return 'just text'; }
  @expose() explicit() { return new Response({ body: 'made', status: 201, headers: { 'X-Made': 'yes' } }); }
  @expose() accepted() { response.status = 203; return 'partial'; }
  @expose() forbidden() { response.status = 403; return 'Not yours'; }
  @expose('json') created() { response.status = 201; return { id: '1' }; }
  @expose() object() { return { not: 'a string' }; }
  @expose({ content_type: 'text/csv' }) download() {
    response.headers['Content-Disposition'] = 'attachment; filename="a.csv"';
    response.app_iter = Readable.from(['a,b\n', '1,2\n']);
  }
  @expose({ content_type: 'text/csv' }) typed() { response.headers['Content-Type'] = 'application/vnd.ms-excel'; return 'x'; }
  @expose() async later() { return 'async body'; }
}

function app() {
  return createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(fakeRenderer);
}

test('strings are HTML, json is JSON, templates go through the render hook', async () => {
  const a = app();
  const html = await a.inject('/html');
  assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(html.body, '<h1>Hi</h1>');
  const data = await a.inject('/data');
  assert.equal(data.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(data.body, '{"a":1}');
  assert.equal((await a.inject('/page')).body, '<page.tpl>{"title":"T"}');
  assert.equal((await a.inject('/bare')).body, '<page.tpl>{}');
  assert.equal((await a.inject('/prefixed')).body, '<other>{"x":1}');
  assert.equal((await a.inject('/feed')).headers['content-type'], 'application/xml; charset=utf-8');
  const plain = await a.inject('/plain');
  assert.equal(plain.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(plain.body, 'just text');
  assert.equal((await a.inject('/later')).body, 'async body');
  await a.close();
});

test('null with json is 200 null; undefined is 204', async () => {
  const a = app();
  const nothing = await a.inject('/nothing');
  assert.equal(nothing.statusCode, 200);
  assert.equal(nothing.body, 'null');
  for (const url of ['/empty', '/silent']) {
    const res = await a.inject(url);
    assert.equal(res.statusCode, 204, url);
    assert.equal(res.body, '');
  }
  await a.close();
});

test('a returned Response replaces the response; a status set by the controller is kept', async () => {
  const a = app();
  const made = await a.inject('/explicit');
  assert.equal(made.statusCode, 201);
  assert.equal(made.body, 'made');
  assert.equal(made.headers['x-made'], 'yes');
  assert.equal((await a.inject('/accepted')).statusCode, 203);
  const forbidden = await a.inject('/forbidden');
  assert.equal(forbidden.statusCode, 403);
  assert.equal(forbidden.body, 'Not yours');
  const created = await a.inject('/created');
  assert.equal(created.statusCode, 201);
  assert.equal(created.body, '{"id":"1"}');
  await a.close();
});

test('downloads: app_iter with the exposed content type; a Content-Type set by the controller wins', async () => {
  const a = app();
  const res = await a.inject('/download');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="a.csv"');
  assert.equal(res.body, 'a,b\n1,2\n');
  assert.equal((await a.inject('/typed')).headers['content-type'], 'application/vnd.ms-excel');
  await a.close();
});

test('an object from a method without a template is a 500 with a clear log line', async () => {
  const logged: string[] = [];
  const logger = { info() {}, warn() {}, error: (_m: string, error: Error) => logged.push(error.message) };
  const a = createKernel({ root: new Root(), logger }).use(dispatchPlugin).use(fakeRenderer);
  assert.equal((await a.inject('/object')).statusCode, 500);
  assert.match(logged[0]!, /Root\.object returned an object \(Object\), but it is exposed without a template/);
  await a.close();
});

test('a template with no renderer is an error at ready(), naming template and engine', async () => {
  class Pages {
    @expose('books/list.ejs') list() { return {}; }
  }
  const a = createKernel({ root: new Pages(), logger: false }).use(dispatchPlugin);
  await assert.rejects(a.ready(), /Pages\.list exposes template "books\/list\.ejs", but no renderer handles engine "ejs"/);
  await a.close();
});

test('a template only reachable through _lookup with no renderer is a 500 logged with template and engine', async () => {
  class Page {
    @expose('view.njk') index() { return {}; }
  }
  class Root {
    @expose() index() { return 'root'; }
    _lookup(_id: string, ...rest: string[]) { return [new Page(), rest]; }
  }
  const logged: string[] = [];
  const logger = { info() {}, warn() {}, error: (_m: string, error: Error) => logged.push(error.message) };
  const a = createKernel({ root: new Root(), logger }).use(dispatchPlugin);
  assert.equal((await a.inject('/x/')).statusCode, 500);
  assert.match(logged[0]!, /view\.njk.*"njk"/);
  await a.close();
});
