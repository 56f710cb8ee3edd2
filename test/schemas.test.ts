// Validated, typed arguments (issue #18) across packages: REST handlers, generic handlers,
// `use_context_locals: false`, hooks, the route map and `hickory routes --openapi`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, expose, Hook, openApiDocument, RestController, routeMap, type HookState, type Request, type Response } from '@hickory/app';
import { z } from 'zod';
import { SchemaRoot } from './fixtures/schemas/root.ts';
import { run } from './fixtures/cli/harness.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

function app(options: Record<string, unknown> = {}) {
  return createApp({ root: new SchemaRoot(), logger: false, ...options });
}

test('REST: get_one receives the parsed id; a bad id is a JSON 400 even for a browser', async () => {
  const a = app();
  assert.equal((await a.inject('/books/7')).body, '{"id":7,"type":"number"}');
  const bad = await a.inject({ url: '/books/seven', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.headers['content-type'], JSON_TYPE);
  assert.equal(bad.body, '{"code":400,"title":"Bad Request","description":"Invalid argument \\"id\\": Invalid input: expected number, received NaN (at id).","issues":[{"message":"Invalid input: expected number, received NaN","path":["id"]}]}');
  await a.close();
});

test('REST: post and put validate the body; put validates its id too', async () => {
  const a = app();
  const created = await a.inject({ method: 'POST', url: '/books/', payload: { title: 'Dune', year: '1965' } });
  assert.equal(created.body, '{"title":"Dune","year":1965}');
  const form = await a.inject({ method: 'POST', url: '/books/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'title=Emma&year=1815' });
  assert.equal(form.body, '{"title":"Emma","year":1815}');
  const bad = await a.inject({ method: 'POST', url: '/books/', payload: { year: 1965 } });
  assert.equal(bad.statusCode, 400);
  assert.deepEqual(bad.json().issues, [{ message: 'Invalid input: expected string, received undefined', path: ['title'] }]);
  assert.equal((await a.inject({ method: 'PUT', url: '/books/3', payload: { year: '2000' } })).body, '{"id":3,"title":"","year":2000}');
  assert.equal((await a.inject({ method: 'PUT', url: '/books/0', payload: {} })).statusCode, 400);
  // _method=put on a form POST goes through the same validation.
  const override = await a.inject({ method: 'POST', url: '/books/4?_method=put', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'title=X' });
  assert.equal(override.body, '{"id":4,"title":"X","year":0}');
  await a.close();
});

test('generic: GET and the when() handler each validate their own parameters', async () => {
  const a = app();
  assert.equal((await a.inject('/items/?page=2')).body, '{"page":2}');
  assert.equal((await a.inject('/items/')).body, '{"page":1}');
  assert.deepEqual((await a.inject('/items/?page=0')).json().issues, [{ message: 'Too small: expected number to be >=1', path: ['page'] }]);
  assert.equal((await a.inject({ method: 'POST', url: '/items/', payload: { name: 'pen' } })).body, '{"name":"pen"}');
  const long = await a.inject({ method: 'POST', url: '/items/', payload: { name: 'fountain pen' } });
  assert.equal(long.statusCode, 400);
  assert.equal(long.json().description, 'Invalid argument "name": Too big: expected string to have <=5 characters (at name).');
  await a.close();
});

test('use_context_locals: false — REST ids after request and response are validated', async () => {
  const ids = { id: z.coerce.number() };
  class Books extends RestController {
    @expose({ template: 'json', args: ids }) get_one(request: Request, _response: Response, id: number) { return { id, path: request.path }; }
  }
  class Root {
    books = new Books();
  }
  const a = createApp({ root: new Root(), use_context_locals: false, logger: false });
  assert.equal((await a.inject('/books/5')).body, '{"id":5,"path":"/books/5"}');
  assert.equal((await a.inject('/books/x')).statusCode, 400);
  await a.close();
});

test('hooks: before hooks see the validated arguments; an invalid request runs on_error, not the handler', async () => {
  const seen: unknown[] = [];
  class Spy extends Hook {
    override before(state: HookState) { seen.push(['before', ...(state.arguments ?? [])]); }
    override on_error(_state: HookState, error: unknown) { seen.push(['on_error', (error as { status?: number }).status]); return undefined; }
  }
  const a = app({ hooks: [new Spy()] });
  assert.equal((await a.inject('/books/7')).statusCode, 200);
  const bad = await a.inject('/books/x');
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.headers['content-type'], JSON_TYPE);
  assert.deepEqual(seen, [['before', 7], ['on_error', 400]]);
  await a.close();
});

test('the route map shows each parameter\'s JSON Schema (or "schema"), the body, and when() handlers', async () => {
  const a = app();
  await a.ready();
  const routes = routeMap(a.root!);
  const show = routes.find((r) => r.path === '/show')!;
  assert.deepEqual(show.schemas, { id: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, q: 'schema' });
  assert.equal(show.body, undefined);
  const items = routes.find((r) => r.path === '/items/')!;
  assert.deepEqual(items.schemas, { page: { type: 'integer', minimum: 1, maximum: 9007199254740991 } });
  assert.deepEqual(items.handlers, { POST: { handler: 'ItemsController.create', params: ['name'], schemas: { name: { type: 'string', maxLength: 5 } } } });
  const home = routes.find((r) => r.path === '/index')!;
  assert.equal('schemas' in home, false);
  await a.close();
});

test('openApiDocument: paths, methods, path and query parameters, body, renderings, the 400', async () => {
  const a = app();
  await a.ready();
  const doc = openApiDocument(a, { title: 'Books', version: '1.2.3' });
  assert.equal(doc['openapi'], '3.1.0');
  assert.deepEqual(doc['info'], { title: 'Books', version: '1.2.3' });
  // A required parameter is a path parameter where path segments can fill it (not below an index's
  // `/`) for GET and DELETE; POST, PUT and PATCH take the parameters as fields of the body.
  assert.deepEqual(Object.keys(doc.paths), ['/', '/index', '/show/{id}', '/show', '/books/{id}', '/books/', '/items/', '/items/index']);
  assert.deepEqual(Object.keys(doc.paths['/items/index']!), ['get', 'post']);
  const nameField = { type: 'object', properties: { name: { type: 'string', maxLength: 5 } }, required: ['name'] };
  assert.deepEqual(doc.paths['/items/index']!['post']!['parameters'], []);
  assert.deepEqual(doc.paths['/items/index']!['post']!['requestBody'], {
    required: true,
    content: { 'application/json': { schema: nameField }, 'application/x-www-form-urlencoded': { schema: nameField }, 'multipart/form-data': { schema: nameField } },
  });
  const show = doc.paths['/show/{id}']!;
  assert.deepEqual(Object.keys(show), ['get', 'delete']);
  assert.deepEqual(Object.keys(doc.paths['/show']!), ['post', 'put', 'patch']);
  assert.deepEqual(doc.paths['/show']!['post']!['parameters'], []);
  const showFields = (doc.paths['/show']!['post']!['requestBody'] as { content: Record<string, { schema: object }> }).content;
  assert.deepEqual(showFields['application/x-www-form-urlencoded']!.schema, {
    type: 'object',
    properties: { id: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, q: { 'x-hickory-schema': true } },
    required: ['id'],
  });
  assert.deepEqual(show['get'], {
    summary: 'SchemaRoot.show',
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } },
      { name: 'q', in: 'query', required: false, schema: { 'x-hickory-schema': true } },
    ],
    responses: {
      '200': { description: 'OK', content: { 'application/json': {}, 'text/html': {} } },
      '400': { description: 'The arguments or the body were rejected', content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } } },
    },
  });
  const items = doc.paths['/items/']!;
  assert.deepEqual(Object.keys(items), ['get', 'post']);
  assert.deepEqual(items['get']!['parameters'], [{ name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 9007199254740991 } }]);
  assert.equal(items['post']!['summary'], 'ItemsController.create');
  assert.deepEqual(items['post']!['parameters'], []);
  assert.deepEqual(items['post']!['requestBody'], doc.paths['/items/index']!['post']!['requestBody']);
  assert.deepEqual(doc.paths['/']!['get'], { summary: 'SchemaRoot.index', parameters: [], responses: { '200': { description: 'OK', content: { 'text/html': {} } } } });
  // The RestController's verbs, with the id named in the path and validated by its schema; what the
  // body schema declares comes from the body alone (its requestBody), never the query (issue #29).
  assert.deepEqual(Object.keys(doc.paths['/books/{id}']!), ['get', 'put']);
  assert.deepEqual(Object.keys(doc.paths['/books/']!), ['post']);
  assert.deepEqual(
    (doc.paths['/books/{id}']!['put']!['parameters'] as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`),
    ['path:id'],
  );
  // The body schema is described once, under components (issue #38), and referenced.
  const putBody = (doc.paths['/books/{id}']!['put']!['requestBody'] as { content: Record<string, { schema: { $ref: string } }> }).content['application/json']!.schema;
  const described = (doc['components'] as { schemas: Record<string, { properties: object }> }).schemas[putBody.$ref.replace('#/components/schemas/', '')]!;
  assert.deepEqual(Object.keys(described.properties), ['title', 'year']);
  assert.equal(doc['x-hickory-dynamic'], undefined);
  const error = (doc['components'] as { schemas: Record<string, { required: string[] }> }).schemas['ValidationError']!;
  assert.deepEqual(error.required, ['code', 'title', 'description', 'issues']);
  await a.close();
});

test('hickory routes --openapi writes the document; the text map labels schemas', async () => {
  const out = await run(['routes', 'test/fixtures/schemas/config.ts', '--openapi']);
  assert.equal(out.code, 0, out.stderr);
  const doc = JSON.parse(out.stdout) as { openapi: string; info: unknown; paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }> }>> };
  assert.equal(doc.openapi, '3.1.0');
  // The nearest package.json above the config file is the repository's: its name, and no version.
  assert.deepEqual(doc.info, { title: 'hickory-monorepo', version: '0.0.0' });
  assert.deepEqual(doc.paths['/show/{id}']!['get']!.parameters.map((p) => `${p.in}:${p.name}`), ['path:id', 'query:q']);
  const text = await run(['routes', 'test/fixtures/schemas/config.ts']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /\n\S+\s+\/show\s+SchemaRoot\.show\s+json \| text\/html\s+\(id: integer, q: schema\)\n/);
  const both = await run(['routes', 'test/fixtures/schemas/config.ts', '--openapi', '--json']);
  assert.notEqual(both.code, 0);
  assert.match(both.stderr, /--json or --openapi, not both/);
});

test('ready() checks the schemas of RestController handlers too', async () => {
  class Books extends RestController {
    // @ts-expect-error: the schema's output (number) fits no parameter: the check at ready() is the point here
    @expose({ template: 'json', args: { book_id: z.coerce.number() } }) get_one(id: string) { return { id }; }
  }
  const a = createApp({ root: { books: new Books() }, logger: false });
  await assert.rejects(a.ready(), { code: 'HICKORY_ERR_DISPATCH_ARGS_UNKNOWN', message: /^Books\.get_one: args names "book_id", which is no parameter of the handler \(its parameters: id\)/ });
});

test('body: a multipart form is validated with its uploaded file', async () => {
  const upload = z.object({ title: z.string(), cover: z.object({ filename: z.string().endsWith('.png'), size: z.number().max(1000) }) });
  class Root {
    @expose({ template: 'json', body: upload }) upload(title: string, cover: { filename: string; size: number }) { return { title, file: cover.filename, size: cover.size }; }
  }
  const a = createApp({ root: new Root(), logger: false });
  const send = (filename: string) => {
    const boundary = 'hickoryschema';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nDune\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="cover"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\nPNGDATA\r\n--${boundary}--\r\n`;
    return a.inject({ method: 'POST', url: '/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  };
  assert.equal((await send('cover.png')).body, '{"title":"Dune","file":"cover.png","size":7}');
  const bad = await send('cover.gif');
  assert.equal(bad.statusCode, 400);
  assert.deepEqual(bad.json().issues, [{ message: 'Invalid string: must end with ".png"', path: ['cover', 'filename'] }]);
  await a.close();
});
