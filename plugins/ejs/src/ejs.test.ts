import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { kernelFor, makeWorkspace, removeWorkspaces, runRendererConformance } from '@hickory/renderer/conformance';
import { ejsRenderer } from '@hickory/ejs';
import { EJS_RESERVED_NAMES } from './ejs-engine.ts';

const files = {
  'layout/header.ejs': '<!DOCTYPE html>\n<html>\n<head><title><%= title %></title></head>\n<body>\n<%- await include(\'../partials/nav\') %>\n<main>\n',
  'layout/footer.ejs': '</main>\n</body>\n</html>\n',
  'partials/nav.ejs': '<nav>Home</nav>\n',
  'page.ejs':
    "<%- await include('/layout/header.ejs') %>\n<h1><%= title %></h1>\n<ul>\n<% for (const book of books) { %>  <li><%= book %></li>\n<% } %></ul>\n<p><%= user %></p>\n<%- await include('layout/footer') %>\n",
  'hello.ejs': 'Hello <%= name %>!\n',
  'echo.ejs': '<%= site %>|<%= name %>|<%= delimiter %>|<%= filename %>|<%= root %>',
  'broken.ejs': 'one\ntwo\n<% throw new Error("broken on purpose") %>\n',
  'throwing.ejs': 'one\n\n<%= boom() %>\n',
  'syntax.ejs': '<h1>ok</h1>\n<p><%= title +* 2 %></p>\n<p>three</p>\n',
  'unclosed.ejs': '<h1>ok</h1>\n<% if (title) { %>\n<p>never closed</p>\n',
  'unclosed-tag.ejs': '<h1>ok</h1>\n<p><%= title </p>\n',
};

runRendererConformance({
  plugin: ejsRenderer,
  engine: 'ejs',
  extension: 'ejs',
  fixtures: {
    files,
    page: 'page.ejs',
    hello: 'hello.ejs',
    helloEdited: 'Bye <%= name %>!\n',
    echo: 'echo.ejs',
    broken: { template: 'broken.ejs', line: 3 },
    throwing: { template: 'throwing.ejs', line: 3 },
    syntax: [
      { template: 'syntax.ejs', line: 2, says: "SyntaxError: Unexpected token '*'" },
      { template: 'unclosed.ejs', line: 3, says: 'the template ends inside a JavaScript block' },
      { template: 'unclosed-tag.ejs', line: 2, says: 'Could not find matching close tag for "<%="' },
    ],
  },
});

after(removeWorkspaces);

test('ejs awaits promises from the namespace and passes data to includes', async () => {
  const ws = await makeWorkspace({
    'a.ejs': "<%= await later %>|<%- await include('b', { extra: '<x>' }) %>",
    'b.ejs': '<%= extra %>/<%= typeof later %>',
  });
  const kernel = await kernelFor(ws, ejsRenderer);
  assert.equal(await kernel.render('a.ejs', { later: Promise.resolve('<ok>') }), '&lt;ok&gt;|&lt;x&gt;/object');
  await kernel.close();
});

test('ejs: namespace keys named like the compiled template\'s helpers cannot replace them', async () => {
  const ws = await makeWorkspace({
    'a.ejs': "<%= name %>|<%- await include('b.ejs') %>|<%= typeof locals %>",
    'b.ejs': 'B',
  });
  const kernel = await kernelFor(ws, ejsRenderer);
  const hostile = Object.fromEntries(EJS_RESERVED_NAMES.map((key) => [key, 'hostile']));
  assert.equal(await kernel.render('a.ejs', { ...hostile, name: '<i>' }), '&lt;i&gt;|B|object');
  await kernel.close();
});

test('ejs: an error inside an include names the included template and its line', async () => {
  const ws = await makeWorkspace({ 'outer.ejs': "x\n<%- await include('inner') %>", 'inner.ejs': 'a\n<%= nope.x %>' });
  const kernel = await kernelFor(ws, ejsRenderer);
  await assert.rejects(kernel.render('outer.ejs', {}), { template: 'inner.ejs', engine: 'ejs', line: 2 });
  await assert.rejects(kernel.render('ejs:outer.ejs', {}), { message: /^Template "inner.ejs" \(engine "ejs"\) failed at line 2: ReferenceError/ });
  await kernel.close();
});

test('ejs: includes cannot leave template_path', async () => {
  const ws = await makeWorkspace({ 'a.ejs': "<%- await include('../../etc/passwd') %>" });
  const kernel = await kernelFor(ws, ejsRenderer);
  await assert.rejects(kernel.render('a.ejs', {}), { code: 'HICKORY_ERR_RENDERER_TEMPLATE_NAME' });
  await kernel.close();
});
