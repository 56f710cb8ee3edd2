import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin } from '@hickory/core';
import { dispatchPlugin, expose, renderingFor, route } from '@hickory/dispatch';

class Books {
  @expose('json')
  @expose({ content_type: 'text/plain' })
  @expose()
  index() { return 'Dune'; }
  @expose() only() { return '<p>html</p>'; }
  @expose('json') data() { return { ok: true }; }
  @expose() file(name: string) { return `file ${name}`; }
}
class Root {
  books = new Books();
  @expose() index() { return 'root'; }
}
route(Root, 'robots.txt', expose({ content_type: 'text/plain' })(function robots() { return 'User-agent: *'; }));

function app(config: Record<string, unknown> = {}) {
  return createKernel({ root: new Root(), logger: false, ...config }).use(dispatchPlugin);
}

test('stacked exposures: the extension picks the rendering, the outermost is the default', async () => {
  const a = app();
  const json = await a.inject('/books/index.json');
  assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(json.body, '"Dune"');
  assert.equal((await a.inject('/books/index.txt')).headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal((await a.inject('/books/index.html')).headers['content-type'], 'text/html; charset=utf-8');
  assert.equal((await a.inject('/books.json')).body, '"Dune"'); // an index reached by extension is served directly
  assert.equal((await a.inject('/books/')).headers['content-type'], 'application/json; charset=utf-8');
  await a.close();
});

test('Accept chooses among the renderings, with q-values; nothing acceptable → 406', async () => {
  const a = app();
  const pick = async (accept: string) => (await a.inject({ url: '/books/', headers: { accept } }));
  assert.equal((await pick('application/json')).headers['content-type'], 'application/json; charset=utf-8');
  assert.equal((await pick('text/plain')).headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal((await pick('text/html')).headers['content-type'], 'text/html; charset=utf-8');
  assert.equal((await pick('text/html;q=0.5, text/plain;q=0.9')).headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal((await pick('*/*')).headers['content-type'], 'application/json; charset=utf-8');
  assert.equal((await pick('text/*')).headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal((await pick('image/png')).statusCode, 406);
  const html = await a.inject({ url: '/books/only', headers: { accept: 'application/json' } });
  assert.equal(html.statusCode, 406);
  assert.equal(html.json().description, 'This resource is available as text/html.');
  assert.equal((await a.inject({ url: '/books/only', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })).statusCode, 200);
  await a.close();
});

test('a representation chosen by Accept says Vary: Accept, whatever the client sent; one chosen by the URL does not', async () => {
  const a = app();
  for (const headers of [{}, { accept: 'application/json' }, { accept: 'text/html' }, { accept: '*/*' }]) {
    const res = await a.inject({ url: '/books/', headers });
    assert.equal(res.statusCode, 200, JSON.stringify(headers));
    assert.equal(res.headers.vary, 'Accept', JSON.stringify(headers));
  }
  const refused = await a.inject({ url: '/books/', headers: { accept: 'image/png' } });
  assert.equal(refused.statusCode, 406);
  assert.equal(refused.headers.vary, 'Accept');
  assert.equal((await a.inject({ method: 'HEAD', url: '/books/' })).headers.vary, 'Accept');
  // An extension picks the rendering, one rendering leaves nothing to choose: no Vary.
  assert.equal((await a.inject('/books/index.json')).headers.vary, undefined);
  assert.equal((await a.inject({ url: '/books/only', headers: { accept: 'text/html' } })).headers.vary, undefined);
  assert.equal((await a.inject('/books/data')).headers.vary, undefined);
  await a.close();
});

test('Vary: Accept joins a Vary the handler or a plugin set, never twice', async () => {
  class Page {
    @expose('json')
    @expose()
    index() {
      return 'x';
    }
  }
  const late = definePlugin({
    name: 'late-vary',
    apply(kernel) {
      kernel.hooks.beforeSend.tap('late-vary', (_request, response) => {
        response.headers['Vary'] = `${String(response.headers['Vary'])}, Cookie`;
      });
    },
  });
  const early = definePlugin({
    name: 'early-vary',
    apply(kernel) {
      kernel.hooks.beforeRoute.tap('early-vary', (_request, response) => {
        response.headers['Vary'] = 'origin, ACCEPT';
      });
    },
  });
  const a = createKernel({ root: new Page(), logger: false }).use(dispatchPlugin).use(late);
  assert.equal((await a.inject('/')).headers.vary, 'Accept, Cookie');
  await a.close();
  const b = createKernel({ root: new Page(), logger: false }).use(early).use(dispatchPlugin);
  assert.equal((await b.inject('/')).headers.vary, 'origin, ACCEPT');
  await b.close();
});

test('an extension the method does not offer is 404; an unknown extension is data', async () => {
  const a = app();
  assert.equal((await a.inject('/books/only.json')).statusCode, 404);
  assert.equal((await a.inject('/books/data.txt')).statusCode, 404);
  assert.equal((await a.inject('/books/data.json')).body, '{"ok":true}');
  assert.equal((await a.inject('/books/file/report.pdf')).body, 'file report.pdf');
  assert.equal((await a.inject('/books/file/notes.txt')).body, 'file notes.txt'); // the stripped walk offers no text/plain: routed as data
  assert.equal((await a.inject('/robots.txt')).body, 'User-agent: *');
  await a.close();
});

test('guess_content_type_from_ext: false leaves extensions in the segment', async () => {
  const a = app({ guess_content_type_from_ext: false });
  assert.equal((await a.inject('/books/index.json')).statusCode, 404);
  assert.equal((await a.inject('/books/file/x.json')).body, 'file x.json');
  await a.close();
});

test('renderingFor() tells a stacked method which rendering was chosen', async () => {
  class Shelf {
    @expose()
    @expose('json')
    index() {
      return renderingFor()?.mediaType === 'application/json' ? ['Dune'] : '<li>Dune</li>';
    }
  }
  const a = createKernel({ root: new Shelf(), logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/')).body, '<li>Dune</li>');
  assert.equal((await a.inject('/index.json')).body, '["Dune"]');
  assert.equal((await a.inject({ url: '/', headers: { accept: 'application/json' } })).body, '["Dune"]');
  assert.equal(renderingFor(), undefined);
  await a.close();
});

test('renderingFor() still answers after an await, and request.lookup names the method that ran', async () => {
  const seen: unknown[] = [];
  class Shelf {
    @expose()
    @expose('json')
    async index() {
      await new Promise((done) => setTimeout(done, 5));
      return renderingFor()?.mediaType === 'application/json' ? ['Dune'] : '<li>Dune</li>';
    }
  }
  const shelf = new Shelf();
  const watcher = definePlugin({
    name: 'lookup-watcher',
    apply(kernel) {
      kernel.hooks.onResponse.tap('lookup-watcher', (request) => void seen.push(request.lookup?.target));
    },
  });
  const a = createKernel({ root: shelf, logger: false }).use(dispatchPlugin).use(watcher);
  const [html, json] = await Promise.all([a.inject('/'), a.inject('/index.json')]);
  assert.equal(html.body, '<li>Dune</li>');
  assert.equal(json.body, '["Dune"]');
  assert.deepEqual(seen, [shelf.index, shelf.index]);
  await a.close();
});

class Stacked {
  // html outermost, json inside: a browser gets the page, an API client the JSON.
  @expose()
  @expose('json')
  index() {
    return 'Dune';
  }
}

test('a stacked method: q-values, */*, type/*, parameters, and the 406, side by side', async () => {
  const a = createKernel({ root: new Stacked(), logger: false }).use(dispatchPlugin);
  const typeFor = async (accept: string) => {
    const res = await a.inject({ url: '/', headers: { accept } });
    return `${res.statusCode} ${String(res.headers['content-type']).split(';')[0]}`;
  };
  assert.equal(await typeFor('application/json,text/html;q=0.9,*/*;q=0.8'), '200 application/json');
  assert.equal(await typeFor('application/json;discard=me'), '200 application/json');
  assert.equal(await typeFor('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), '200 text/html');
  assert.equal(await typeFor('*/*'), '200 text/html');
  assert.equal(await typeFor('application/*'), '200 application/json');
  assert.equal(await typeFor('text/*;q=0.1, application/json;q=0.2'), '200 application/json');
  assert.equal(await typeFor('image/png'), '406 text/html');
  const refused = await a.inject({ url: '/', headers: { accept: 'image/png, application/json;q=0' } });
  assert.equal(refused.statusCode, 406);
  assert.match(refused.body, /This resource is available as text\/html, application\/json\./);
  await a.close();
});
