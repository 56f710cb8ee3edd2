import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeNamespace } from './namespace.ts';
import { resolveTemplateName } from './template-names.ts';

const root = '/srv/templates';

test('template names resolve inside template_path', () => {
  assert.deepEqual(resolveTemplateName(root, 'books/list.ejs', 'ejs'), { name: 'books/list.ejs', path: '/srv/templates/books/list.ejs' });
  assert.equal(resolveTemplateName(root, '/books/../index.ejs', 'ejs').name, 'index.ejs');
  assert.equal(resolveTemplateName(root, './x.ejs', 'ejs').name, 'x.ejs');
  const from = resolveTemplateName(root, 'books/list.ejs', 'ejs');
  assert.equal(resolveTemplateName(root, './row.ejs', 'ejs', from).name, 'books/row.ejs');
  assert.equal(resolveTemplateName(root, '../nav.ejs', 'ejs', from).name, 'nav.ejs');
  assert.equal(resolveTemplateName(root, 'nav.ejs', 'ejs', from).name, 'nav.ejs');
});

test('names that leave template_path, or hold \\ or NUL, are errors naming the template and engine', () => {
  const from = resolveTemplateName(root, 'books/list.ejs', 'ejs');
  for (const [name, parent] of [['..', undefined], ['../x', undefined], ['a/../../x', undefined], ['', undefined], ['a\\b', undefined], ['a\0b', undefined], ['.', undefined], ['dir/', undefined], ['../../x', from]] as const) {
    assert.throws(() => resolveTemplateName(root, name, 'ejs', parent), { code: 'HICKORY_ERR_RENDERER_TEMPLATE_NAME', engine: 'ejs' }, JSON.stringify(name));
  }
  assert.throws(() => resolveTemplateName(root, 42 as unknown as string, 'ejs'), { code: 'HICKORY_ERR_RENDERER_TEMPLATE_NAME' });
});

test('mergeNamespace: null prototype, namespace wins, no __proto__, inputs untouched', () => {
  const extra = { site: 'S', title: 'extra' };
  const namespace = JSON.parse('{"title": "Books", "__proto__": {"polluted": 1}}') as Record<string, unknown>;
  const data = mergeNamespace(extra, namespace);
  assert.equal(Object.getPrototypeOf(data), null);
  assert.deepEqual({ ...data }, { site: 'S', title: 'Books' });
  assert.equal(Object.hasOwn(data, '__proto__'), false);
  assert.deepEqual(extra, { site: 'S', title: 'extra' });
  assert.deepEqual({ ...mergeNamespace(undefined, null) }, {});
});
