import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { kernelFor, makeWorkspace, removeWorkspaces, runRendererConformance } from '@hickory/renderer/conformance';
import { handlebarsRenderer } from '@hickory/handlebars';

runRendererConformance({
  plugin: handlebarsRenderer,
  engine: 'handlebars',
  extension: 'hbs',
  fixtures: {
    files: {
      'partials/layout.hbs':
        '<!DOCTYPE html>\n<html>\n<head><title>{{title}}</title></head>\n<body>\n{{> nav}}\n<main>{{> @partial-block}}</main>\n</body>\n</html>\n',
      'partials/nav.hbs': '<nav>Home</nav>\n',
      'page.hbs': '{{#> layout}}\n<h1>{{title}}</h1>\n<ul>\n{{#each books}}  <li>{{this}}</li>\n{{/each}}</ul>\n<p>{{user}}</p>\n{{/layout}}\n',
      'hello.hbs': 'Hello {{name}}!\n',
      'echo.hbs': '{{site}}|{{name}}|{{delimiter}}|{{filename}}|{{root}}',
      'broken.hbs': 'one\ntwo\n{{/if}}\n',
      'throwing.hbs': 'one\n\n{{boom}}\n',
      'syntax.hbs': '<h1>ok</h1>\n<p>{{title}</p>\n<p>three</p>\n',
      'unclosed.hbs': '<h1>ok</h1>\n{{#if title}}\n<p>never closed</p>\n',
    },
    page: 'page.hbs',
    hello: 'hello.hbs',
    helloEdited: 'Bye {{name}}!\n',
    echo: 'echo.hbs',
    broken: { template: 'broken.hbs', line: 3 },
    // handlebars reports no position for errors thrown while rendering.
    throwing: { template: 'throwing.hbs' },
    syntax: [
      { template: 'syntax.hbs', line: 2, says: 'Parse error' },
      { template: 'unclosed.hbs', line: 3, says: 'Parse error' },
    ],
  },
});

after(removeWorkspaces);

test('handlebars keeps prototype properties and methods out of reach', async () => {
  class Book {
    title = 'Dune';
    get secret() {
      return 'getter';
    }
    shout() {
      return 'method';
    }
  }
  const ws = await makeWorkspace({
    'proto.hbs': '{{book.title}}|{{book.secret}}|{{book.shout}}|{{book.constructor.name}}|{{book.__proto__}}|{{lookup book "constructor"}}|{{#with book}}{{hasOwnProperty}}{{/with}}',
  });
  const kernel = await kernelFor(ws, handlebarsRenderer);
  const originalError = console.error;
  console.error = () => {}; // handlebars reports each denied access once on the console
  try {
    assert.equal(await kernel.render('proto.hbs', { book: new Book() }), 'Dune||||||');
  } finally {
    console.error = originalError;
  }
  await kernel.close();
});

test('handlebars: helpers from the options, the .handlebars extension, nested partials, and the partial cache', async () => {
  const ws = await makeWorkspace({
    'a.handlebars': '{{upper name}} {{> shared/footer}}',
    'partials/shared/footer.hbs': '<{{name}}>',
  });
  const cached = await kernelFor(ws, handlebarsRenderer, {}, undefined, { helpers: { upper: (s: string) => s.toUpperCase() } });
  const fresh = await kernelFor(ws, handlebarsRenderer, { template_cache: false }, undefined, { helpers: { upper: (s: string) => s.toUpperCase() } });
  assert.equal(await cached.render('a.handlebars', { name: '<i>' }), '&lt;I&gt; <&lt;i&gt;>');
  assert.equal(await fresh.render('a.handlebars', { name: 'x' }), 'X <x>');
  await ws.write('partials/shared/footer.hbs', '[{{name}}]');
  assert.equal(await cached.render('a.handlebars', { name: 'x' }), 'X <x>');
  assert.equal(await fresh.render('a.handlebars', { name: 'x' }), 'X [x]');
  await cached.close();
  await fresh.close();
});

test('handlebars: a missing partial and a broken partial are errors naming them', async () => {
  const ws = await makeWorkspace({ 'a.hbs': '{{> nowhere}}', 'b.hbs': '{{> bad}}', 'partials/bad.hbs': 'x\n{{/if}}' });
  const kernel = await kernelFor(ws, handlebarsRenderer);
  await assert.rejects(kernel.render('a.hbs', {}), { template: 'a.hbs', engine: 'handlebars', message: /nowhere/ });
  await assert.rejects(kernel.render('b.hbs', {}), { template: 'partials/bad.hbs', engine: 'handlebars', line: 2 });
  await kernel.close();
});

test('renderNow answers a cached handlebars template with a string, without a promise', async () => {
  const ws = await makeWorkspace({ 'now.hbs': '{{#> wrap}}Hi {{name}}{{/wrap}}', 'partials/wrap.hbs': '<b>{{> @partial-block}}</b>' });
  const kernel = await kernelFor(ws, handlebarsRenderer);
  const first = kernel.renderNow('now.hbs', { name: 'Ada' });
  assert.equal(await first, '<b>Hi Ada</b>');
  const second = kernel.renderNow('now.hbs', { name: '<Bo>' });
  assert.equal(typeof second, 'string', 'a compiled template renders synchronously');
  assert.equal(second, '<b>Hi &lt;Bo&gt;</b>');
  await kernel.close();
});
