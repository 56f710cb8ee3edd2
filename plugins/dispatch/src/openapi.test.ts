import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Request, type Response } from '@hickory/core';
import { dispatchPlugin, expose, openApiDocument, routeMap, when } from '@hickory/dispatch';
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
// create(text) would be refused at ready(): it would get the Request as `text`).
class ExplicitNotes {
  @expose({ generic: true, template: 'json' }) index() { return []; }
  @when('index', { method: 'POST', body: note }) create(_request: Request, _response: Response, text: string) { return { text }; }
}

function explicitApp() {
  return createKernel({ root: Object.assign(new Root(), { notes: new ExplicitNotes() }), use_context_locals: false, logger: false }).use(dispatchPlugin);
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
  const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  assert.deepEqual(post['requestBody'], {
    required: true,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } },
  });
  assert.equal(doc.paths['/notes/']!['get']!['requestBody'], undefined);
  assert.deepEqual(doc['x-hickory-dynamic'], [{ path: '/*', handler: 'Root._default', decides: '_default' }]);
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
