import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Request, type Response } from '@hickory/core';
import { dispatchPlugin, expose, openApiDocument, routeMap, when, type OpenApiConfig } from '@hickory/dispatch';
import { guard } from '@hickory/dispatch/kit';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as v from 'valibot';
import { z } from 'zod';

const note = z.object({ text: z.string() });

class Notes {
  @expose({ generic: true, template: 'json' }) index() { return []; }
  @when('index', { method: 'POST', body: note }) create(text: string) { return { text }; }
}

class Root {
  notes = new Notes();
  @expose({ template: 'json', args: { id: v.string() } }) @expose({ content_type: 'text/plain' })
  show(request: Request, _response: Response, id: string, ...parts: string[]) { return { id, parts, path: request.path }; }
  @expose() index() { return 'home'; }
  _default() { return 'nothing here'; }
}

// Without context locals every handler takes the request and the response first (a one-parameter
// create(text) would be refused at ready(): it would get the Request as `text`; so would index()).
class ExplicitNotes {
  @expose({ generic: true, template: 'json' }) index(_request: Request, _response: Response) { return []; }
  @when('index', { method: 'POST', body: note }) create(_request: Request, _response: Response, text: string) { return { text }; }
}

// …and one that declares no parameter is refused too (it could not take them).
class ExplicitRoot extends Root {
  @expose() override index(_request?: Request, _response?: Response) { return 'home'; }
  override _default(_request?: Request, _response?: Response) { return 'nothing here'; }
}

function explicitApp() {
  return createKernel({ root: Object.assign(new ExplicitRoot(), { notes: new ExplicitNotes() }), use_context_locals: false, logger: false }).use(dispatchPlugin);
}

test('openApiDocument without context locals: the request and the response are not parameters', async () => {
  const app = explicitApp();
  await app.ready();
  const doc = openApiDocument(app);
  const show = doc.paths['/show/{id}']!['get']!;
  // A valibot schema has no JSON Schema converter of its own: marked, not guessed.
  assert.deepEqual(show['parameters'], [{ name: 'id', in: 'path', required: true, schema: { 'x-hickory-schema': true } }]);
  assert.deepEqual((show['responses'] as Record<string, { content: object }>)['200']!.content, { 'application/json': {}, 'text/plain': {} });
  await app.close();
});

test('openApiDocument: a when() handler\'s body schema is its operation\'s requestBody for every body type', async () => {
  const app = explicitApp();
  await app.ready();
  const doc = openApiDocument(app);
  const post = doc.paths['/notes/']!['post']!;
  // Described once, under components, and referenced from each body type.
  const schema = { $ref: '#/components/schemas/ExplicitNotes.create.body' };
  assert.deepEqual(post['requestBody'], {
    required: true,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } },
  });
  const components = doc['components'] as { schemas: Record<string, unknown> };
  assert.deepEqual(components.schemas['ExplicitNotes.create.body'], { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
  assert.equal(doc.paths['/notes/']!['get']!['requestBody'], undefined);
  assert.deepEqual(doc['x-hickory-dynamic'], [{ path: '/*', handler: 'ExplicitRoot._default', decides: '_default' }]);
  await app.close();
});

test('routeMap lists schemas only where declared, and the body of a when() handler', () => {
  const routes = routeMap(new Root());
  const show = routes.find((r) => r.path === '/show')!;
  assert.deepEqual(show.schemas, { id: 'schema' });
  assert.equal('body' in show, false);
  assert.equal('schemas' in routes.find((r) => r.path === '/index')!, false);
  const notes = routes.find((r) => r.path === '/notes/')!;
  assert.deepEqual(notes.handlers, { POST: { handler: 'Notes.create', params: ['text'], body: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } } });
});

class Uploads {
  // As an upload handler is written: its parameters are form fields, one of them a file.
  @expose('json') upload(title: string, attachment: unknown) { return { title, attachment: String(attachment) }; }
}
class Vault {
  @expose('json') index() { return { secret: true }; }
}
class UploadRoot {
  uploads = new Uploads();
  vault = new Vault();
  constructor() {
    guard(this.vault, () => false);
  }
}

async function uploadDoc(options?: Parameters<typeof openApiDocument>[1], openapi?: OpenApiConfig) {
  const app = createKernel({ root: new UploadRoot(), logger: false, openapi }).use(dispatchPlugin);
  await app.ready();
  try {
    return openApiDocument(app, options);
  } finally {
    await app.close();
  }
}

test('openApiDocument: POST, PUT and PATCH take the parameters as body fields (an upload is never a path segment)', async () => {
  const doc = await uploadDoc();
  assert.deepEqual(Object.keys(doc.paths['/uploads/upload']!), ['post', 'put', 'patch']);
  const post = doc.paths['/uploads/upload']!['post']!;
  assert.deepEqual(post['parameters'], []);
  const fields = (text: object) => ({ type: 'object', properties: { title: text, attachment: text }, required: ['title', 'attachment'] });
  assert.deepEqual(post['requestBody'], {
    required: true,
    content: {
      'application/json': { schema: fields({}) },
      'application/x-www-form-urlencoded': { schema: fields({ type: 'string' }) },
      'multipart/form-data': { schema: fields({}) },
    },
  });
  // GET and DELETE carry no body: path segments fill the leading required parameters.
  assert.deepEqual(Object.keys(doc.paths['/uploads/upload/{title}/{attachment}']!), ['get', 'delete']);
});

test('openApiDocument: a secured route has a 401 and requires the security schemes given, else a stand-in', async () => {
  const stand = await uploadDoc();
  const vault = stand.paths['/vault/']!['get']!;
  assert.deepEqual((vault['responses'] as Record<string, unknown>)['401'], { description: 'Refused by the route\'s secure() check' });
  assert.deepEqual(vault['security'], [{ hickory: [] }]);
  const schemes = (stand['components'] as { securitySchemes: Record<string, { type: string; scheme: string; description: string }> }).securitySchemes;
  assert.deepEqual(Object.keys(schemes), ['hickory']);
  assert.equal(schemes['hickory']!.type, 'http');
  assert.match(schemes['hickory']!.description, /stand-in/);
  const open = stand.paths['/uploads/upload']!['post']!;
  assert.equal(open['security'], undefined);
  assert.equal((open['responses'] as Record<string, unknown>)['401'], undefined);

  const session = { type: 'apiKey', in: 'cookie', name: 'session' };
  const token = { type: 'http', scheme: 'bearer' };
  const given = await uploadDoc({ securitySchemes: { session, token } });
  assert.deepEqual(given.paths['/vault/']!['get']!['security'], [{ session: [] }, { token: [] }]);
  assert.deepEqual((given['components'] as { securitySchemes: object }).securitySchemes, { session, token });
});

test("openApiDocument: the app's `openapi` configuration declares the schemes and the requirement of secured routes", async () => {
  const session = { type: 'apiKey', in: 'cookie', name: 'sid' } as const;
  const token = { type: 'http', scheme: 'bearer' } as const;
  const configured = await uploadDoc(undefined, { securitySchemes: { session } });
  assert.deepEqual(configured.paths['/vault/']!['get']!['security'], [{ session: [] }]);
  assert.deepEqual((configured['components'] as { securitySchemes: object }).securitySchemes, { session });
  assert.equal(configured.paths['/uploads/upload']!['post']!['security'], undefined);
  // An explicit requirement: both at once.
  const both = await uploadDoc(undefined, { securitySchemes: { session, token }, security: [{ session: [], token: [] }] });
  assert.deepEqual(both.paths['/vault/']!['get']!['security'], [{ session: [], token: [] }]);
  // The options given to openApiDocument win over the configuration.
  const given = await uploadDoc({ securitySchemes: { token } }, { securitySchemes: { session } });
  assert.deepEqual(given.paths['/vault/']!['get']!['security'], [{ token: [] }]);
  // Without either, the stand-in says how to declare the real one.
  const stand = await uploadDoc();
  const description = (stand['components'] as { securitySchemes: Record<string, { description: string }> }).securitySchemes['hickory']!.description;
  assert.match(description, /openapi: \{ securitySchemes: /);
});

test('the `openapi` configuration is checked at ready(), naming the mistake', async () => {
  const refused = async (openapi: unknown, message: RegExp) => {
    const app = createKernel({ root: new UploadRoot(), logger: false, openapi }).use(dispatchPlugin);
    await assert.rejects(app.ready(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'HICKORY_ERR_CONFIG_VALUE');
      assert.match(error.message, message);
      return true;
    });
  };
  await refused('cookie', /"openapi".*must be an object, e\.g\. \{ securitySchemes: /);
  await refused({ schemes: {} }, /has "schemes": its keys are securitySchemes and security/);
  await refused({ securitySchemes: { s: { type: 'apiKey', in: 'cookie' } } }, /securitySchemes\.s \(apiKey\) needs `name`/);
  await refused({ securitySchemes: { s: { type: 'apiKey', in: 'body', name: 'x' } } }, /securitySchemes\.s \(apiKey\) needs `in`: cookie, header or query/);
  await refused({ securitySchemes: { s: { type: 'cookie' } } }, /securitySchemes\.s has type "cookie": one of apiKey, http/);
  await refused({ securitySchemes: { s: { type: 'http' } } }, /\(http\) needs `scheme`/);
  await refused({ securitySchemes: { s: { type: 'http', scheme: 'bearer' } }, security: [{ t: [] }] }, /security names "t", which securitySchemes does not declare/);
  await refused({ security: [{ t: [] }] }, /securitySchemes must declare them/);
});

test('openApiDocument: a response schema is the 200 answer\'s JSON Schema; the method\'s other renderings keep theirs empty', async () => {
  const Greeting = z.object({ hello: z.string(), count: z.number().int().optional() });
  class Greetings {
    @expose('json', { response: Greeting }) @expose({ content_type: 'text/plain' }) index() { return { hello: 'world' }; }
    @expose('json') plain() { return { hello: 'world' }; }
  }
  const app = createKernel({ root: new Greetings(), logger: false }).use(dispatchPlugin);
  await app.ready();
  const doc = openApiDocument(app);
  const ok = (path: string) => ((doc.paths[path]!['get']!['responses'] as Record<string, unknown>)['200']);
  assert.deepEqual(ok('/'), {
    description: 'OK',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Greetings.index.response' } }, 'text/plain': {} },
  });
  assert.deepEqual((doc['components'] as { schemas: Record<string, unknown> }).schemas['Greetings.index.response'], {
    type: 'object',
    properties: { hello: { type: 'string' }, count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } },
    required: ['hello'],
    additionalProperties: false,
  });
  assert.deepEqual(ok('/plain'), { description: 'OK', content: { 'application/json': {} } });
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Record<string, unknown>);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  await app.close();
});
