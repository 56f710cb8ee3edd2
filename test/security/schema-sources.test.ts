// Argument sources never mix (issue #29): a parameter a body schema fills is never filled from
// the path or the query — a path segment that would land on it makes the route not fit (404) —
// and every parameter a handler receives is either validated by a schema that names it or comes
// from a source that has no schema (the path for a REST id, the query beside a body schema).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, expose, openApiDocument, RestController, when, type Request, type Response } from '@hickory/app';
import * as v from 'valibot';
import { z } from 'zod';

const calls: string[] = [];
const book = z.object({ title: z.string().max(5), year: z.coerce.number() });
const optionalYear = z.object({ title: z.string().max(5), year: z.coerce.number().optional() });
// valibot describes no JSON Schema by itself: only its output says which parameters it fills.
const vbook = v.object({ title: v.pipe(v.string(), v.maxLength(5)) });

class Books extends RestController {
  @expose({ template: 'json', body: book }) put(id: string, title: string, year: number) { calls.push('put'); return { id, title, year }; }
}
class Generic {
  @expose({ generic: true, template: 'json' }) index() { calls.push('get'); return 'get'; }
  @when('index', { method: 'POST', body: book }) create(title: string, year: number) { calls.push('create'); return { title, year }; }
}
class Root {
  books = new Books();
  generic = new Generic();
  @expose({ template: 'json', body: book }) add(title: string, year: number) { calls.push('add'); return { title, year }; }
  @expose({ template: 'json', body: optionalYear }) dated(title: string, year = 0) { calls.push('dated'); return { title, year }; }
  @expose({ template: 'json', body: vbook }) named(title: string) { calls.push('named'); return { title }; }
  @expose({ template: 'json', body: z.object({ role: z.literal('user') }).strict() }) strict(role: string) { calls.push('strict'); return { role }; }
  @expose({ template: 'json', args: { id: z.coerce.number().int().max(10) }, body: z.object({ title: z.string().max(5) }) })
  edit(id: number, title: string) { calls.push('edit'); return { id, title }; }
  @expose({ template: 'json', args: { n: z.coerce.number().max(10) } }) num(n: number) { calls.push('num'); return { n }; }
}
class ExplicitRoot {
  @expose({ template: 'json', body: book }) add(_request: Request, _response: Response, title: string, year: number) { calls.push('explicit add'); return { title, year }; }
  @expose({ template: 'json', args: { n: z.coerce.number().max(10) } }) num(_request: Request, _response: Response, n: number) { calls.push('explicit num'); return { n }; }
}

const dune = { title: 'Dune', year: '1965' };
type Row = [method: string, url: string, payload: object | undefined, status: number, body: string | undefined, handler: string | undefined];

const rows: Row[] = [
  // plain @expose with a body schema
  ['POST', '/add/LONGTITLE/99999', dune, 404, undefined, undefined],
  ['POST', '/add/LONGTITLE', dune, 404, undefined, undefined],
  ['POST', '/add', dune, 200, '{"title":"Dune","year":1965}', 'add'],
  ['POST', '/add?title=LONGTITLE&year=x', dune, 200, '{"title":"Dune","year":1965}', 'add'],
  // a key the schema names but the body left out comes from nowhere else (the default applies)
  ['POST', '/dated?year=abc', { title: 'Dune' }, 200, '{"title":"Dune","year":0}', 'dated'],
  ['POST', '/dated/Dune/abc', { title: 'Dune' }, 404, undefined, undefined],
  ['POST', '/dated', { title: 'Dune', year: '7' }, 200, '{"title":"Dune","year":7}', 'dated'],
  // a library without a JSON Schema: the output's keys are what the schema fills
  ['POST', '/named/LONGTITLE', { title: 'Dune' }, 404, undefined, undefined],
  ['POST', '/named?title=LONGTITLE', { title: 'Dune' }, 200, '{"title":"Dune"}', 'named'],
  // a .strict() literal: the path cannot choose the role
  ['POST', '/strict/admin', { role: 'user' }, 404, undefined, undefined],
  ['POST', '/strict?role=admin', { role: 'user' }, 200, '{"role":"user"}', 'strict'],
  ['POST', '/strict', { role: 'user' }, 200, '{"role":"user"}', 'strict'],
  // REST: the id from the path (no schema names it), the rest from the body only
  ['PUT', '/books/1/LONGTITLE/99999', dune, 404, undefined, undefined],
  ['PUT', '/books/1/LONGTITLE', dune, 404, undefined, undefined],
  ['PUT', '/books/1', dune, 200, '{"id":"1","title":"Dune","year":1965}', 'put'],
  // generic: the when() handler's body schema
  ['POST', '/generic/LONGTITLE/99999', dune, 404, undefined, undefined],
  ['POST', '/generic/', dune, 200, '{"title":"Dune","year":1965}', 'create'],
  // args and body together: the path fills the args parameter (validated), never the body's
  ['POST', '/edit/7', { title: 'Dune' }, 200, '{"id":7,"title":"Dune"}', 'edit'],
  ['POST', '/edit/7/LONGTITLE', { title: 'Dune' }, 404, undefined, undefined],
  ['POST', '/edit/99', { title: 'Dune' }, 400, undefined, undefined],
  // an args schema validates its parameter whatever the source: path, query or body
  ['POST', '/num/99', {}, 400, undefined, undefined],
  ['GET', '/num?n=99', undefined, 400, undefined, undefined],
  ['POST', '/num', { n: 99 }, 400, undefined, undefined],
  ['POST', '/num/3', {}, 200, '{"n":3}', 'num'],
];

const explicitRows: Row[] = [
  ['POST', '/add/LONGTITLE/99999', dune, 404, undefined, undefined],
  ['POST', '/add', dune, 200, '{"title":"Dune","year":1965}', 'explicit add'],
  ['POST', '/num/99', {}, 400, undefined, undefined],
  ['POST', '/num', { n: 99 }, 400, undefined, undefined],
  ['GET', '/num/4', undefined, 200, '{"n":4}', 'explicit num'],
];

async function check(app: ReturnType<typeof createApp>, table: Row[]): Promise<void> {
  for (const [method, url, payload, status, body, handler] of table) {
    calls.length = 0;
    const res = await app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
    const label = `${method} ${url} ${JSON.stringify(payload)}`;
    assert.equal(res.statusCode, status, `${label}: ${res.body}`);
    if (body !== undefined) assert.equal(res.body, body, label);
    assert.deepEqual(calls, handler ? [handler] : [], `${label}: handlers that ran`);
  }
}

test('a body schema cannot be bypassed through the path: plain, REST, generic, strict, args', async () => {
  const app = createApp({ root: new Root(), logger: false });
  try {
    await check(app, rows);
  } finally {
    await app.close();
  }
});

test('a body schema cannot be bypassed through the path: use_context_locals: false', async () => {
  const app = createApp({ root: new ExplicitRoot(), logger: false, use_context_locals: false });
  try {
    await check(app, explicitRows);
  } finally {
    await app.close();
  }
});

test('a form body is held to the same rule as a JSON body', async () => {
  const app = createApp({ root: new Root(), logger: false });
  try {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const bypass = await app.inject({ method: 'POST', url: '/add/LONGTITLE/99999', headers: form, payload: 'title=Dune&year=1965' });
    assert.equal(bypass.statusCode, 404);
    const plain = await app.inject({ method: 'POST', url: '/add', headers: form, payload: 'title=Dune&year=1965' });
    assert.equal(plain.body, '{"title":"Dune","year":1965}');
  } finally {
    await app.close();
  }
});

test('the OpenAPI document lists no path or query parameter for what the body schema declares', async () => {
  const app = createApp({ root: new Root(), logger: false });
  try {
    await app.ready();
    const doc = openApiDocument(app);
    assert.ok(doc.paths['/add'], Object.keys(doc.paths).join(' '));
    assert.equal(doc.paths['/add/{title}/{year}'], undefined);
    assert.deepEqual(doc.paths['/add']!['post']!['parameters'], []);
    const edit = doc.paths['/edit/{id}']!['post']!['parameters'] as Array<{ name: string; in: string }>;
    assert.deepEqual(edit.map((p) => `${p.in}:${p.name}`), ['path:id']);
  } finally {
    await app.close();
  }
});
