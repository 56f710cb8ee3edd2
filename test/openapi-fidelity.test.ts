// The OpenAPI document says what the app does (issue #38): an upload is a file of a multipart
// form only, a body schema is described once under components and referenced, and a declared
// success status (`expose({ status: 201 })`) is both what the handler answers and what the
// document says. Checked on a small app with the multipart plugin, through openapiPlugin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { createApp, expose, openapiPlugin, uploadedFile, when, type UploadedFile } from '@hickory/app';

const Book = z.object({ title: z.string().min(1), pages: z.number().int().positive().optional() });

class Books {
  @expose({ generic: true, template: 'json' }) index() { return []; }
  @when('index', { method: 'POST', template: 'json', body: Book, status: 201 }) create(title: string) { return { title }; }
  // The same schema on another route: one component, two references.
  @expose('json', { body: Book }) check(title: string) { return { ok: title.length > 0 }; }
}

class Files {
  @expose('json', { args: { file: uploadedFile }, status: 201 })
  store(title: string, file: UploadedFile) { return { title, name: file.filename, size: file.size }; }
  @expose('json', { status: 204 }) clear() { return undefined; }
}

class Root {
  books = new Books();
  files = new Files();
}

type Operation = { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, { description: string; content?: unknown }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

async function app() {
  const kernel = createApp({ root: new Root(), logger: false, plugins: [openapiPlugin] });
  await kernel.ready();
  return kernel;
}

async function documentOf(kernel: Awaited<ReturnType<typeof app>>): Promise<Document> {
  const res = await kernel.inject('/openapi.json');
  assert.equal(res.statusCode, 200);
  const doc = res.json() as Document;
  const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  return doc;
}

test('an upload: type string, format binary, in a multipart/form-data body only', async () => {
  const doc = await documentOf(await app());
  for (const method of ['post', 'put', 'patch']) {
    const body = doc.paths['/files/store']![method]!.requestBody!;
    assert.deepEqual(Object.keys(body.content), ['multipart/form-data'], method);
    assert.deepEqual(body.content['multipart/form-data']!.schema, {
      type: 'object',
      properties: { title: {}, file: { type: 'string', format: 'binary' } },
      required: ['title', 'file'],
    });
  }
});

test('a body schema is described once under components.schemas, referenced by every body type and route', async () => {
  const doc = await documentOf(await app());
  const ref = { $ref: '#/components/schemas/Books.create.body' };
  const create = doc.paths['/books/']!['post']!.requestBody!.content;
  assert.deepEqual(Object.keys(create), ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
  for (const type of Object.keys(create)) assert.deepEqual(create[type]!.schema, ref, type);
  assert.deepEqual(doc.paths['/books/check']!['post']!.requestBody!.content['application/json']!.schema, ref);
  assert.deepEqual(Object.keys(doc.components.schemas).sort(), ['Books.create.body', 'ValidationError']);
  assert.deepEqual(doc.components.schemas['Books.create.body'], {
    type: 'object',
    properties: { title: { type: 'string', minLength: 1 }, pages: { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 } },
    required: ['title'],
  });
  // Written out once: the document holds the schema's text one time.
  assert.equal(JSON.stringify(doc).split('"minLength":1').length - 1, 1);
});

test('a declared success status is the documented one and the one answered', async () => {
  const kernel = await app();
  const doc = await documentOf(kernel);
  assert.deepEqual(Object.keys(doc.paths['/books/']!['post']!.responses), ['201', '400']);
  assert.equal(doc.paths['/books/']!['post']!.responses['201']!.description, 'Created');
  assert.deepEqual(Object.keys(doc.paths['/books/']!['get']!.responses), ['200']);
  assert.deepEqual(doc.paths['/files/clear']!['get']!.responses, { '204': { description: 'No Content' } });

  const created = await kernel.inject({ method: 'POST', url: '/books/', payload: { title: 'Dune' } });
  assert.equal(created.statusCode, 201);
  assert.equal(created.body, '{"title":"Dune"}');
  // An error keeps its own status.
  assert.equal((await kernel.inject({ method: 'POST', url: '/books/', payload: { title: '' } })).statusCode, 400);
  assert.equal((await kernel.inject('/books/')).statusCode, 200);
  assert.equal((await kernel.inject('/files/clear')).statusCode, 204);

  const boundary = 'x-boundary';
  const form = [`--${boundary}`, 'Content-Disposition: form-data; name="title"', '', 'Notes', `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="a.txt"', 'Content-Type: text/plain', '', 'hello', `--${boundary}--`, ''].join('\r\n');
  const stored = await kernel.inject({ method: 'POST', url: '/files/store', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: form });
  assert.equal(stored.statusCode, 201);
  assert.equal(stored.body, '{"title":"Notes","name":"a.txt","size":5}');
  // Without a file in the field: a 400 naming it, never the handler with a string.
  const missing = await kernel.inject({ method: 'POST', url: '/files/store', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'title=Notes&file=text' });
  assert.equal(missing.statusCode, 400);
  assert.deepEqual((missing.json() as { issues: unknown }).issues, [{ message: 'Expected a file (a field of a multipart/form-data body)', path: ['file'] }]);
});

test('status must be a success status, or expose() says so', () => {
  assert.throws(() => expose('json', { status: 404 }), { code: 'HICKORY_ERR_DISPATCH_EXPOSE_ARGS', message: /`status` must be a success status from 200 to 299/ });
  assert.throws(() => when('index', { method: 'POST', status: 301 }), { code: 'HICKORY_ERR_DISPATCH_WHEN_ARGS', message: /`status` must be a success status/ });
  assert.throws(() => {
    class Twice {
      @expose('json', { status: 201 }) @expose({ status: 202 }) both() { return {}; }
    }
    return Twice;
  }, { code: 'HICKORY_ERR_DISPATCH_EXPOSE_ARGS', message: /already answers 202/ });
});
