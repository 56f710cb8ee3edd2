// use_context_locals: false (Pecan's option): handlers receive (request, response, ...arguments),
// the kernel enters no AsyncLocalStorage, and the importable request/response name the option.
// Handlers here use the request and response they receive; the behaviour tables themselves
// (conformance-*.test.ts) run in both modes through test/modes.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, request as importedRequest, type Request, type Response } from '@hickory/core';
import { currentExchange } from '@hickory/core/kit';
import { createApp } from '@hickory/app';
import { expose, renderingFor, when } from '@hickory/dispatch';
import { Hook, type HookState } from '@hickory/hooks';
import { RestController } from '@hickory/rest';

class Item {
  constructor(readonly id: string) {}
  @expose() index(req: Request, res: Response) { res.headers['X-Item'] = this.id; return `item ${this.id} at ${req.path}`; }
}

class Chapters extends RestController {
  @expose('json') get_all(_req: Request, _res: Response, book: string) { return { book, chapters: [] }; }
  @expose('json') get_one(_req: Request, _res: Response, book: string, id: string) { return { book, id }; }
}

class Books extends RestController {
  static override _custom_actions = { checkout: ['POST'] };
  chapters = new Chapters();
  @expose('json') get_all(req: Request) { return { method: req.method, books: ['1'] }; }
  @expose('json') get_one(_req: Request, _res: Response, id: string) { return { id }; }
  @expose('json') post(_req: Request, res: Response, name: string) { res.status = 201; return { name }; }
  @expose('json') put(_req: Request, _res: Response, id: string, name: string) { return { id, name }; }
  @expose('json') delete(_req: Request, _res: Response, id: string) { return { deleted: id }; }
  @expose('json') checkout(_req: Request, _res: Response, id: string) { return { checked_out: id }; }
}

class Generic {
  @expose({ generic: true }) index(req: Request) { return `get ${req.path}`; }
  @when('index', { method: 'POST' }) index_post(_req: Request, _res: Response, id: string, note = '') { return `post ${id} ${note}`; }
}

class Items {
  _lookup(id: string, ...rest: string[]) { return [new Item(id), rest]; }
}

class Root {
  books = new Books();
  generic = new Generic();
  @expose() index(req: Request, res: Response) { res.headers['X-Seen'] = req.method; return 'home'; }
  @expose() show(_req: Request, _res: Response, id: string, format = 'html') { return `${id} as ${format}`; }
  @expose() search(_req: Request, _res: Response, kwargs: Record<string, unknown>) { return JSON.stringify({ ...kwargs }); }
  @expose() rest(_req: Request, _res: Response, ...parts: string[]) { return parts.join('|'); }
  @expose() context(req: Request) { return `${currentExchange() === undefined} ${req.context !== undefined}`; }
  @expose() imported(_req: Request, _res: Response) { return importedRequest.path; }
  @expose() @expose('json') negotiated(req: Request) { return renderingFor(req)?.mediaType === 'application/json' ? { json: true } : 'html'; }
  @expose() missing(_req: Request, _res: Response) { return abort(410); }
  items = new Items();
}

function explicitApp(extra: Record<string, unknown> = {}) {
  return createApp({ root: new Root(), use_context_locals: false, logger: false, ...extra });
}

test('handlers receive (request, response, ...arguments): path, query, defaults, kwargs, rest, _lookup', async () => {
  const app = explicitApp();
  const cases: Array<[string, number, string]> = [
    ['/', 200, 'home'],
    ['/show/7', 200, '7 as html'],
    ['/show/7?format=json', 200, '7 as json'],
    ['/show?id=8', 200, '8 as html'],
    ['/show', 400, 'Missing required parameter &quot;id&quot;'],
    ['/show/1/2', 200, '1 as 2'],
    ['/show/1/2/3', 404, 'Not Found'],
    ['/search?q=dune&page=2', 200, '{"q":"dune","page":"2"}'],
    ['/rest/a/b/c', 200, 'a|b|c'],
    ['/items/42/', 200, 'item 42 at /items/42/'],
    ['/missing', 410, 'Gone'],
  ];
  for (const [url, status, body] of cases) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, status, url);
    assert.ok(res.body.includes(body), `${url}: ${res.body}`);
  }
  assert.equal((await app.inject('/')).headers['x-seen'], 'GET');
  assert.equal((await app.inject('/items/42/')).headers['x-item'], '42');
  await app.close();
});

test('generic handlers and REST: verbs, ids after the two, nested resources, custom actions, OPTIONS and 405', async () => {
  const app = explicitApp();
  const json = (res: { body: string }) => JSON.parse(res.body) as unknown;
  assert.deepEqual(json(await app.inject('/books/')), { method: 'GET', books: ['1'] });
  assert.deepEqual(json(await app.inject('/books/7')), { id: '7' });
  const created = await app.inject({ method: 'POST', url: '/books/', payload: { name: 'Dune' } });
  assert.equal(created.statusCode, 201);
  assert.deepEqual(json(created), { name: 'Dune' });
  assert.deepEqual(json(await app.inject({ method: 'PUT', url: '/books/7', payload: { name: 'Emma' } })), { id: '7', name: 'Emma' });
  assert.deepEqual(json(await app.inject({ method: 'DELETE', url: '/books/7' })), { deleted: '7' });
  assert.deepEqual(json(await app.inject({ method: 'POST', url: '/books/7/checkout' })), { checked_out: '7' });
  assert.deepEqual(json(await app.inject('/books/3/chapters/')), { book: '3', chapters: [] });
  assert.deepEqual(json(await app.inject('/books/3/chapters/9')), { book: '3', id: '9' });
  assert.equal((await app.inject('/books/1/2/3')).statusCode, 404);
  const options = await app.inject({ method: 'OPTIONS', url: '/books/7' });
  assert.equal(options.statusCode, 204);
  assert.equal(options.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
  const patch = await app.inject({ method: 'PATCH', url: '/books/7' });
  assert.equal(patch.statusCode, 405);
  assert.equal(patch.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
  assert.equal((await app.inject('/generic/')).body, 'get /generic/');
  assert.equal((await app.inject({ method: 'POST', url: '/generic/5', payload: { note: 'hi' } })).body, 'post 5 hi');
  assert.equal((await app.inject({ method: 'PUT', url: '/generic/' })).statusCode, 405);
  await app.close();
});

test('no AsyncLocalStorage: the importable request throws naming the option; negotiation reads the request passed', async () => {
  const errors: string[] = [];
  const app = explicitApp({ logger: { info() {}, warn() {}, error: (_m: string, e?: unknown) => void errors.push((e as Error).message) } });
  assert.equal((await app.inject('/context')).body, 'true true');
  assert.equal((await app.inject('/imported')).statusCode, 500);
  assert.deepEqual(errors, [
    '`request` is not available: this app runs with use_context_locals: false, so handlers receive the request and the response as their first two arguments (handler(request, response, ...)); use those, or set use_context_locals: true.',
  ]);
  assert.equal((await app.inject('/negotiated')).body, 'html');
  assert.equal((await app.inject('/negotiated.json')).body, '{"json":true}');
  await app.close();
});

test('hooks see the arguments as the handler gets them; a bad value of the option fails at ready()', async () => {
  const seen: unknown[][] = [];
  class Probe extends Hook {
    override before(state: HookState) { seen.push([...(state.arguments ?? [])].map((a) => (typeof a === 'object' && a !== null ? a.constructor.name : a))); }
  }
  const app = explicitApp({ hooks: [new Probe()] });
  assert.equal((await app.inject('/show/3?format=txt')).body, '3 as txt');
  assert.deepEqual(seen, [['Request', 'Response', '3', 'txt']]);
  await app.close();
  await assert.rejects(createApp({ root: new Root(), use_context_locals: 'no' as unknown as boolean, logger: false }).ready(), {
    code: 'HICKORY_ERR_CONFIG_VALUE',
    message: 'Configuration key "use_context_locals" must be true or false (got "no").',
  });
});
