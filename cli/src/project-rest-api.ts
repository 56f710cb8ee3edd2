import { handlerStyle, type HandlerStyle } from './project-style.ts';

/**
 * The files the `rest-api` project template adds: a `RestController` over books (list, read,
 * create, update, delete; the body of a create or an update checked by a zod schema), a root page rendered by ejs that lists the endpoints, and a test of
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
import { z } from 'zod';
${style.note}
export interface Book {
  id: string;
  name: string;
}

// What POST and PUT accept (JSON or a form): anything else is answered 400 with the issues,
// before the handler runs. Other fields of the body are dropped.
const BookInput = z.object({ name: z.string().trim().min(1, 'A book needs a name') });

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

  @expose({ template: 'json', body: BookInput })
  post(${style.params('name: string', ['response'])}) {
    const book = { id: String(this.#next++), name };
    this.#books.set(book.id, book);
    response.status = 201;
    response.headers['Location'] = \`/books/\${book.id}\`;
    return book;
  }

  @expose({ template: 'json', body: BookInput })
  put(${style.params('id: string, name: string')}) {
    const book = this.#books.get(id) ?? abort(404, \`No book \${id}\`);
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
  const form = await app.inject({ method: 'POST', url: '/books/', payload: 'name=Persuasion', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(form.statusCode, 201);
  assert.equal(form.json().name, 'Persuasion');

  assert.equal((await app.inject({ method: 'DELETE', url: \`/books/\${id}\` })).statusCode, 204);
  assert.equal((await app.inject(\`/books/\${id}\`)).statusCode, 404);
  assert.equal((await app.inject({ method: 'PATCH', url: \`/books/\${id}\` })).statusCode, 405);
  await app.close();
});

test('a book whose name is not a non-empty string is refused with 400 naming the problem', async () => {
  const { app: config } = await loadConfig(fileURLToPath(new URL('../config.ts', import.meta.url)));
  const app = createApp({ ...config, logger: false });
  const cases: Array<[unknown, string]> = [
    [{ name: ['Dune', 'Emma'] }, 'Invalid input: expected string, received array'],
    [{ name: { title: 'Dune' } }, 'Invalid input: expected string, received object'],
    [{ name: 7 }, 'Invalid input: expected string, received number'],
    [{ name: '   ' }, 'A book needs a name'],
    [{}, 'Invalid input: expected string, received undefined'],
  ];
  for (const [payload, message] of cases) {
    for (const [method, url] of [['POST', '/books/'], ['PUT', '/books/1']] as const) {
      const refused = await app.inject({ method, url, payload: payload as object });
      assert.equal(refused.statusCode, 400, \`\${method} \${JSON.stringify(payload)}: \${refused.body}\`);
      const { description, issues } = refused.json();
      assert.equal(description, \`Invalid request body: \${message} (at name).\`);
      assert.deepEqual(issues, [{ path: ['name'], message }]);
    }
  }
  assert.deepEqual((await app.inject('/books/')).json(), [], 'nothing was stored');
  await app.close();
});
`,
  };
}
