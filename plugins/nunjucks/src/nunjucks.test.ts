import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { kernelFor, makeWorkspace, removeWorkspaces, runRendererConformance } from '@hickory/renderer/conformance';
import { nunjucksRenderer } from '@hickory/nunjucks';

runRendererConformance({
  plugin: nunjucksRenderer,
  engine: 'nunjucks',
  extension: 'njk',
  fixtures: {
    files: {
      'layout.njk':
        '<!DOCTYPE html>\n<html>\n<head><title>{{ title }}</title></head>\n<body>\n{% include "partials/nav.njk" %}\n<main>{% block content %}{% endblock %}</main>\n</body>\n</html>\n',
      'partials/nav.njk': '<nav>Home</nav>\n',
      'page.njk':
        '{% extends "layout.njk" %}\n{% block content %}\n<h1>{{ title }}</h1>\n<ul>\n{% for book in books %}  <li>{{ book }}</li>\n{% endfor %}</ul>\n<p>{{ user }}</p>\n{% endblock %}\n',
      'hello.njk': 'Hello {{ name }}!\n',
      'echo.njk': '{{ site }}|{{ name }}|{{ delimiter }}|{{ filename }}|{{ root }}',
      'broken.njk': 'one\ntwo\n{% if %}\n',
      'throwing.njk': 'one\n\n{{ boom() }}\n',
      'syntax.njk': '<h1>ok</h1>\n<p>{{ title | }}</p>\n<p>three</p>\n',
      'unclosed.njk': '<h1>ok</h1>\n{% if title %}\n<p>never closed</p>\n',
    },
    page: 'page.njk',
    hello: 'hello.njk',
    helloEdited: 'Bye {{ name }}!\n',
    echo: 'echo.njk',
    broken: { template: 'broken.njk', line: 3 },
    throwing: { template: 'throwing.njk', line: 3 },
    syntax: [
      { template: 'syntax.njk', line: 2, says: 'expected symbol, got variable-end' },
      { template: 'unclosed.njk', line: 3, says: 'expected elif, else, or endif, got end of file' },
    ],
  },
});

after(removeWorkspaces);

test('nunjucks: the .nunjucks extension, relative includes and filters from the options', async () => {
  const ws = await makeWorkspace({
    'pages/a.nunjucks': '{% include "./b.njk" %}|{{ name | shout }}',
    'pages/b.njk': 'B {{ name }}',
  });
  const kernel = await kernelFor(ws, nunjucksRenderer, {}, undefined, { filters: { shout: (s: string) => `${s}!` } });
  assert.equal(await kernel.render('pages/a.nunjucks', { name: '<i>' }), 'B &lt;i&gt;|&lt;i&gt;!');
  await kernel.close();
});

test('nunjucks: an error in an included template names it and its line', async () => {
  const ws = await makeWorkspace({ 'outer.njk': 'x\n{% include "inner.njk" %}', 'inner.njk': 'a\nb\n{{ boom() }}' });
  const kernel = await kernelFor(ws, nunjucksRenderer);
  const boom = () => {
    throw new Error('kaboom');
  };
  await assert.rejects(kernel.render('outer.njk', { boom }), { template: 'inner.njk', engine: 'nunjucks', line: 3 });
  await kernel.close();
});

test('nunjucks: extends and includes cannot leave template_path; a missing include is named', async () => {
  const ws = await makeWorkspace({ 'a.njk': '{% include "../../etc/passwd" %}', 'b.njk': '{% extends "./../x.njk" %}', 'c.njk': 'c\n{% include "nope.njk" %}' });
  const kernel = await kernelFor(ws, nunjucksRenderer);
  await assert.rejects(kernel.render('a.njk', {}), { message: /does not name a file inside template_path/ });
  await assert.rejects(kernel.render('b.njk', {}), { message: /does not name a file inside template_path/ });
  await assert.rejects(kernel.render("c.njk", {}), { code: "HICKORY_ERR_RENDERER_TEMPLATE_MISSING", template: "nope.njk" });
  await kernel.close();
});

test('nunjucks: a page rendered once renders again without a promise, with the same text', async () => {
  const ws = await makeWorkspace({
    'base.njk': '<title>{{ title }}</title>{% include "nav.njk" %}{% block body %}{% endblock %}',
    'nav.njk': '<nav>{{ title }}</nav>',
    'page.njk': '{% extends "base.njk" %}{% block body %}{% for b in books %}<li>{{ b }}</li>{% endfor %}{% endblock %}',
  });
  const kernel = await kernelFor(ws, nunjucksRenderer);
  const data = { title: '<T>', books: ['a&b', 'c'] };
  const expected = '<title>&lt;T&gt;</title><nav>&lt;T&gt;</nav><li>a&amp;b</li><li>c</li>';
  const first = kernel.renderNow('page.njk', data);
  assert.ok(first instanceof Promise, 'the first render loads the templates without blocking');
  assert.equal(await first, expected);
  assert.equal(kernel.renderNow('page.njk', data), expected);
  assert.equal(kernel.renderNow('page.njk', { title: 'U', books: [] }), '<title>U</title><nav>U</nav>');
  await kernel.close();
});

test('nunjucks: a warm page meeting an include it never loaded reads it at once; a missing one is named, and nothing is thrown later', async () => {
  const ws = await makeWorkspace({
    'page.njk': 'P{% if extra %}{% include "extra.njk" %}{% endif %}{% if broken %}\n{% include "gone.njk" %}{% endif %}',
    'extra.njk': '+{{ extra }}',
  });
  const kernel = await kernelFor(ws, nunjucksRenderer);
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', record);
  try {
    assert.equal(await kernel.render('page.njk', {}), 'P');
    assert.equal(kernel.renderNow('page.njk', { extra: 'x' }), 'P+x');
    assert.throws(() => kernel.renderNow('page.njk', { broken: true }), { code: 'HICKORY_ERR_RENDERER_TEMPLATE_MISSING', template: 'gone.njk' });
    assert.equal(kernel.renderNow('page.njk', {}), 'P');
    await new Promise((done) => setTimeout(done, 50));
    assert.deepEqual(uncaught, []);
  } finally {
    process.off('uncaughtException', record);
    await kernel.close();
  }
});

test('nunjucks: an error on a warm page names the template and its line', async () => {
  const ws = await makeWorkspace({ 'page.njk': 'a\n{% if fail %}\n{{ boom() }}{% endif %}' });
  const kernel = await kernelFor(ws, nunjucksRenderer);
  const boom = () => {
    throw new Error('kaboom');
  };
  assert.equal(await kernel.render('page.njk', {}), 'a\n');
  assert.throws(() => kernel.renderNow('page.njk', { fail: true, boom }), { template: 'page.njk', engine: 'nunjucks', line: 3 });
  await kernel.close();
});

test('nunjucks: with template_cache off every render reads the files again, through the callback API', async () => {
  const ws = await makeWorkspace({ 'page.njk': 'one' });
  const kernel = await kernelFor(ws, nunjucksRenderer, { template_cache: false });
  assert.equal(await kernel.render('page.njk', {}), 'one');
  await ws.write('page.njk', 'two');
  const second = kernel.renderNow('page.njk', {});
  assert.ok(second instanceof Promise);
  assert.equal(await second, 'two');
  await kernel.close();
});
