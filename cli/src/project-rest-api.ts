import { handlerStyle, type HandlerStyle } from './project-style.ts';

/**
 * The files the `rest-api` project template adds: a `RestController` over books (list, read,
 * create, update, delete), a root page rendered by ejs that lists the endpoints, and a test of
 * every verb through `inject()`. Its handlers are written in `style` (`hickory create --explicit`:
 * they receive the request and the response).
 *
 * @example
 * ```ts
 * Object.keys(restApiFiles()); // ['controllers/root.ts', 'controllers/books.ts', ...]
 * ```
 */
export function restApiFiles(style: HandlerStyle = handlerStyle(false)): Record<string, string> {
  return {
    'controllers/books.ts': `${style.imports(['abort', 'expose', 'response', 'RestController'])}
${style.note}
export interface Book {
  id: string;
  name: string;
}

/** /books/: GET lists, POST creates; /books/<id>: GET reads, PUT updates, DELETE deletes. */
export class BooksController extends RestController {
  // #private: routing follows public fields (TypeScript's \`private\` is gone at run time).
  readonly #books = new Map<string, Book>();
  #next = 1;

  @expose('json')
  get_all(${style.params()}) {
    return [...this.#books.values()];
  }

  @expose('json')
  get_one(${style.params('id: string')}) {
    return this.#books.get(id) ?? abort(404, \`No book \${id}\`);
  }

  @expose('json')
  post(${style.params("name = ''", ['response'])}) {
    if (!name.trim()) abort(400, 'A book needs a name');
    const book = { id: String(this.#next++), name };
    this.#books.set(book.id, book);
    response.status = 201;
    response.headers['Location'] = \`/books/\${book.id}\`;
    return book;
  }

  @expose('json')
  put(${style.params("id: string, name = ''")}) {
    const book = this.#books.get(id) ?? abort(404, \`No book \${id}\`);
    if (!name.trim()) abort(400, 'A book needs a name');
    book.name = name;
    return book;
  }

  @expose('json')
  delete(${style.params('id: string', ['response'])}) {
    if (!this.#books.delete(id)) abort(404, \`No book \${id}\`);
    response.status = 204;
  }
}
`,
    'controllers/root.ts': `${style.imports(['expose'])}
import { BooksController } from './books.ts';
${style.note}
export class RootController {
  books = new BooksController();

  @expose('index.ejs')
  index(${style.params()}) {
    return { title: 'Books API', endpoints: ['GET /books/', 'POST /books/', 'GET /books/<id>', 'PUT /books/<id>', 'DELETE /books/<id>'] };
  }
}
`,
    'templates/index.ejs': `<!DOCTYPE html>
<html>
  <head><meta charset="utf-8"><title><%= title %></title></head>
  <body>
    <h1><%= title %></h1>
    <ul><% for (const endpoint of endpoints) { %><li><code><%= endpoint %></code></li><% } %></ul>
  </body>
</html>
`,
    'test/app.test.ts': `import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createApp, loadConfig } from '@hickory/app';

test('books can be listed, created, read, updated and deleted', async () => {
  const { app: config } = await loadConfig(fileURLToPath(new URL('../config.ts', import.meta.url)));
  const app = createApp({ ...config, logger: false });
  const home = await app.inject('/');
  assert.equal(home.statusCode, 200);
  assert.match(home.body, /<code>GET \\/books\\/<\\/code>/);
  assert.deepEqual((await app.inject('/books/')).json(), []);

  const created = await app.inject({ method: 'POST', url: '/books/', payload: { name: 'Dune' } });
  assert.equal(created.statusCode, 201);
  const { id } = created.json();
  assert.equal(created.headers.location, \`/books/\${id}\`);
  assert.deepEqual((await app.inject(\`/books/\${id}\`)).json(), { id, name: 'Dune' });
  assert.deepEqual((await app.inject('/books/')).json(), [{ id, name: 'Dune' }]);

  const put = await app.inject({ method: 'PUT', url: \`/books/\${id}\`, payload: { name: 'Emma' } });
  assert.deepEqual(put.json(), { id, name: 'Emma' });
  assert.equal((await app.inject({ method: 'POST', url: '/books/', payload: {} })).statusCode, 400);

  assert.equal((await app.inject({ method: 'DELETE', url: \`/books/\${id}\` })).statusCode, 204);
  assert.equal((await app.inject(\`/books/\${id}\`)).statusCode, 404);
  assert.equal((await app.inject({ method: 'PATCH', url: \`/books/\${id}\` })).statusCode, 405);
  await app.close();
});
`,
  };
}
