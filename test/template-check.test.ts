// A template an exposure names is checked at ready(): a missing file, a name outside
// template_path, or an engine whose package is not installed fails the app's start with a
// message naming the method, the template and the fix — not the first request that renders it.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createApp, expose } from '@hickory/app';
import { defineRenderer, lazyEngine } from '@hickory/renderer';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-template-check-'));
  await writeFile(join(dir, 'page.ejs'), 'hello <%= name %>');
});
after(() => rm(dir, { recursive: true, force: true }));

async function startFails(root: object, extra: Record<string, unknown> = {}): Promise<string> {
  const app = createApp({ root, template_path: dir, logger: false, ...extra });
  try {
    await app.ready();
  } catch (error) {
    assert.equal((error as { code?: string }).code, 'HICKORY_ERR_DISPATCH_TEMPLATE_PROBLEM');
    return (error as Error).message;
  } finally {
    await app.close();
  }
  assert.fail('ready() should have failed');
}

test('a template that is not there fails ready(), naming the method, the template and where it was looked for', async () => {
  class Root {
    @expose('page.ejs') page() { return { name: 'Ada' }; }
    @expose('books/list.ejs') list() { return { books: [] }; }
  }
  assert.equal(
    await startFails(new Root()),
    `Root.list exposes template "books/list.ejs", which cannot render: Template "books/list.ejs" (engine "ejs") was not found under template_path ${dir}.`,
  );
  class Prefixed {
    @expose('nunjucks:mail.txt') mail() { return {}; }
  }
  assert.match(await startFails(new Prefixed()), /^Prefixed\.mail exposes template "nunjucks:mail\.txt", which cannot render: Template "mail\.txt" \(engine "nunjucks"\) was not found/);
  class Outside {
    @expose('../secrets.ejs') leak() { return {}; }
  }
  assert.match(await startFails(new Outside()), /^Outside\.leak exposes template "\.\.\/secrets\.ejs", which cannot render: Template name "\.\.\/secrets\.ejs" \(engine "ejs"\) does not name a file inside template_path/);
});

test('templates that are there start, and render', async () => {
  class Root {
    @expose('page.ejs') index() { return { name: 'Ada' }; }
  }
  const app = createApp({ root: new Root(), template_path: dir, logger: false });
  try {
    assert.equal((await app.inject('/')).body, 'hello Ada');
  } finally {
    await app.close();
  }
});

test('an engine whose package is not installed fails ready() only where a template of its kind is exposed', async () => {
  const absent = defineRenderer({
    name: 'absent',
    extensions: ['absent'],
    library: { name: 'hickory-no-such-engine', resolve: () => import.meta.resolve('hickory-no-such-engine') },
    create: () => lazyEngine(async () => ({ render: () => 'never' })),
  });
  class Root {
    @expose('page.absent') page() { return {}; }
  }
  assert.equal(
    await startFails(new Root(), { plugins: [absent] }),
    'Root.page exposes template "page.absent", which cannot render: it needs the package "hickory-no-such-engine", which is not installed: npm install hickory-no-such-engine',
  );
  class Plain {
    @expose('page.ejs') index() { return { name: 'Ada' }; }
  }
  const app = createApp({ root: new Plain(), template_path: dir, logger: false, plugins: [absent] });
  try {
    assert.equal((await app.inject('/')).body, 'hello Ada');
  } finally {
    await app.close();
  }
});
