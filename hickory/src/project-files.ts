import type { ProjectTemplate } from './create-project.ts';

/**
 * The files of a new project, by relative path.
 *
 * @example
 * ```ts
 * Object.keys(projectFiles('shop', 'base', '^0.1.0')); // ['package.json', 'config.ts', ...]
 * ```
 */
export function projectFiles(name: string, template: ProjectTemplate, hickory: string): Record<string, string> {
  const common: Record<string, string> = {
    'package.json': `${JSON.stringify(
      {
        name,
        private: true,
        type: 'module',
        scripts: {
          start: 'hickory serve config.ts',
          test: 'node --conditions=source --import tsx --test test/app.test.ts',
        },
        dependencies: { hickory, tsx: '^4.23.0' },
      },
      null,
      2,
    )}\n`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          allowImportingTsExtensions: true,
          noEmit: true,
          types: ['node'],
        },
      },
      null,
      2,
    )}\n`,
    'config.ts': `// Served by \`npm start\` (hickory serve config.ts).
export default {
  server: { host: '127.0.0.1', port: 8080 },
  app: {
    root: './controllers/root.ts#RootController',
    template_path: '%(confdir)s/templates',
  },
};
`,
    '.gitignore': 'node_modules/\n',
  };
  return template === 'rest-api' ? { ...common, ...restFiles() } : { ...common, ...baseFiles() };
}

function baseFiles(): Record<string, string> {
  return {
    'controllers/root.ts': `import { expose } from 'hickory';

export class RootController {
  @expose('index.ejs')
  index() {
    return { title: 'Welcome to Hickory' };
  }

  @expose('json')
  hello(name = 'world') {
    return { hello: name };
  }
}
`,
    'templates/index.ejs': `<!DOCTYPE html>
<html>
  <head><meta charset="utf-8"><title><%= title %></title></head>
  <body><h1><%= title %></h1><p><a href="/hello?name=you">/hello?name=you</a></p></body>
</html>
`,
    'test/app.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, loadConfig } from 'hickory';

test('the home page and /hello answer', async () => {
  const { app: config } = await loadConfig(new URL('../config.ts', import.meta.url).pathname);
  const app = createApp({ ...config, logger: false });
  const home = await app.inject('/');
  assert.equal(home.statusCode, 200);
  assert.match(home.body, /<h1>Welcome to Hickory<\\/h1>/);
  const hello = await app.inject('/hello?name=Ada');
  assert.deepEqual(hello.json(), { hello: 'Ada' });
  await app.close();
});
`,
  };
}

function restFiles(): Record<string, string> {
  return {
    'controllers/root.ts': `import { abort, expose, RestController, response } from 'hickory';

interface Book { id: string; name: string }
const books = new Map<string, Book>();
let next = 1;

export class BooksController extends RestController {
  @expose('json')
  get_all() {
    return [...books.values()];
  }

  @expose('json')
  get_one(id: string) {
    return books.get(id) ?? abort(404, \`No book \${id}\`);
  }

  @expose('json')
  post(name: string) {
    const book = { id: String(next++), name };
    books.set(book.id, book);
    response.status = 201;
    return book;
  }

  @expose('json')
  put(id: string, name: string) {
    const book = books.get(id) ?? abort(404, \`No book \${id}\`);
    book.name = name;
    return book;
  }

  @expose('json')
  delete(id: string) {
    if (!books.delete(id)) abort(404, \`No book \${id}\`);
    return {};
  }
}

export class RootController {
  books = new BooksController();

  @expose('json')
  index() {
    return { books: '/books/' };
  }
}
`,
    'test/app.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, loadConfig } from 'hickory';

test('books can be created, read, updated and deleted', async () => {
  const { app: config } = await loadConfig(new URL('../config.ts', import.meta.url).pathname);
  const app = createApp({ ...config, logger: false });
  const created = await app.inject({ method: 'POST', url: '/books/', payload: { name: 'Dune' } });
  assert.equal(created.statusCode, 201);
  const { id } = created.json();
  assert.deepEqual((await app.inject(\`/books/\${id}\`)).json(), { id, name: 'Dune' });
  const put = await app.inject({ method: 'PUT', url: \`/books/\${id}\`, payload: { name: 'Emma' } });
  assert.deepEqual(put.json(), { id, name: 'Emma' });
  assert.equal((await app.inject({ method: 'DELETE', url: \`/books/\${id}\` })).statusCode, 200);
  assert.equal((await app.inject(\`/books/\${id}\`)).statusCode, 404);
  await app.close();
});
`,
  };
}
