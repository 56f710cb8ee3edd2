import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { request } from '@hickory/core';
import { expose, route } from '@hickory/dispatch';
import { UploadedFile } from '@hickory/multipart';
import { RestController } from '@hickory/rest';
import { createApp } from './create-app.ts';

class Books extends RestController {
  @expose('json') get_all() { return [{ id: '1' }]; }
  @expose('json') get_one(id: string) { return { id }; }
}

class Root {
  books = new Books();
  @expose() index() { return 'home'; }
  @expose('page.ejs') ejs() { return { name: '<ejs>' }; }
  @expose('page.njk') nunjucks() { return { name: '<njk>' }; }
  @expose('page.hbs') handlebars() { return { name: '<hbs>' }; }
  @expose('json')
  async upload() {
    const file = request.POST['file'];
    assert.ok(file instanceof UploadedFile);
    return { filename: file.filename, type: file.type, size: file.size, text: await text(file.file) };
  }
}
route(Root, 'opening-times', expose()(() => '9-5'));

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-create-app-'));
  await writeFile(join(dir, 'page.ejs'), 'ejs says <%= name %>');
  await writeFile(join(dir, 'page.njk'), 'nunjucks says {{ name }}');
  await writeFile(join(dir, 'page.hbs'), 'handlebars says {{ name }}');
  await writeFile(join(dir, 'hello.txt'), 'static hello\n');
});
after(() => rm(dir, { recursive: true, force: true }));

test('createApp serves routes, all three template engines, uploads, static files and REST', async () => {
  const app = createApp({ root: new Root(), template_path: dir, static_root: dir, logger: false });
  try {
    const home = await app.inject('/');
    assert.equal(home.statusCode, 200);
    assert.equal(home.body, 'home');
    assert.equal((await app.inject('/opening-times')).body, '9-5');

    assert.equal((await app.inject('/ejs')).body, 'ejs says &lt;ejs&gt;');
    assert.equal((await app.inject('/nunjucks')).body, 'nunjucks says &lt;njk&gt;');
    assert.equal((await app.inject('/handlebars')).body, 'handlebars says &lt;hbs&gt;');

    const boundary = 'hickoryboundary';
    const upload = await app.inject({
      method: 'POST',
      url: '/upload',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nuploaded bytes\r\n--${boundary}--\r\n`,
    });
    assert.equal(upload.statusCode, 200, upload.body);
    assert.deepEqual(upload.json(), { filename: 'a.txt', type: 'text/plain', size: 14, text: 'uploaded bytes' });

    const file = await app.inject('/hello.txt');
    assert.equal(file.statusCode, 200);
    assert.equal(file.body, 'static hello\n');
    assert.match(String(file.headers['content-type']), /^text\/plain/);

    assert.deepEqual((await app.inject('/books/')).json(), [{ id: '1' }]);
    assert.deepEqual((await app.inject('/books/7')).json(), { id: '7' });
    const post = await app.inject({ method: 'POST', url: '/books/' });
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
  } finally {
    await app.close();
  }
});

test('plugins: third-party plugins after the first-party ones, with or without options; a bad entry fails at once', async () => {
  const { definePlugin } = await import('@hickory/core');
  const stamp = definePlugin<{ value?: string } | undefined>({
    name: 'stamp',
    apply(kernel, options) {
      kernel.hooks.beforeRoute.tap('stamp', (_request, response) => {
        response.headers['X-Stamp'] = options?.value ?? 'plain';
      });
    },
  });
  const other = definePlugin({ name: 'other', apply() {} });
  class Root {
    @expose() index() {
      return 'home';
    }
  }
  const app = createApp({ root: new Root(), logger: false, plugins: [[stamp, { value: 'set' }], other] });
  try {
    const res = await app.inject('/');
    assert.equal(res.headers['x-stamp'], 'set');
    assert.equal((await app.inject('/missing')).headers['x-stamp'], 'set');
    assert.ok(app.hasPlugin('other'));
  } finally {
    await app.close();
  }
  assert.throws(() => createApp({ plugins: [{ name: 'not a plugin' } as never] }), /plugin/i);
});

test('hooks: application hooks run for routed requests, not for static files (answered before on_route)', async () => {
  const { Hook } = await import('@hickory/hooks');
  const seen: string[] = [];
  class Trace extends Hook {
    override on_route(state: { request: { path: string } }) { seen.push(`on_route ${state.request.path}`); }
    override after(state: { request: { path: string } }) { seen.push(`after ${state.request.path}`); }
  }
  const app = createApp({ root: new Root(), template_path: dir, static_root: dir, hooks: [new Trace()], logger: false });
  try {
    assert.equal((await app.inject('/hello.txt')).body, 'static hello\n');
    assert.deepEqual(seen, []);
    assert.equal((await app.inject('/')).body, 'home');
    assert.deepEqual(seen, ['on_route /', 'after /']);
  } finally {
    await app.close();
  }
});
