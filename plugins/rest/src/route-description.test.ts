// The route map of REST resources: every route it lists is routed to the handler it names (each
// listed method, ids filled in), and the list is exactly what the resources answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Request, type Response } from '@hickory/core';
import { expose, openApiDocument, routeMap } from '@hickory/dispatch';
import { restPlugin } from './plugin.ts';
import { RestController } from './rest-controller.ts';

const answer = (handler: string, ...args: unknown[]) => ({ handler, args });

class Chapters extends RestController {
  @expose('json') get_all(book: string) { return answer('get_all', book); }
  @expose('json') get_one(book: string, id: string) { return answer('get_one', book, id); }
}

class Books extends RestController {
  static override _custom_actions = { checkout: ['POST'], stats: ['GET'] };
  chapters = new Chapters();
  @expose('json') get_all() { return answer('get_all'); }
  @expose('json') get_one(id: string) { return answer('get_one', id); }
  @expose('json') new() { return answer('new'); }
  @expose('json') edit(id: string) { return answer('edit', id); }
  @expose('json') post(name = '') { return answer('post', name); }
  @expose('json') put(id: string, name = '') { return answer('put', id, name); }
  @expose('json') delete(id: string) { return answer('delete', id); }
  @expose('json') patch(id: string) { return answer('patch', id); }
  @expose('json') checkout(id: string) { return answer('checkout', id); }
  @expose('json') stats() { return answer('stats'); }
}

class ExplicitBooks extends RestController {
  @expose('json') get_one(_request: Request, _response: Response, id: string) { return answer('get_one', id); }
  @expose('json') put(_request: Request, _response: Response, id: string, name = '') { return answer('put', id, name); }
}

class Legacy extends RestController {
  @expose('json') get_one(id: string) { return answer('get_one', id); }
  override _route(remainder: readonly string[], request: Request) {
    return super._route(remainder, request);
  }
}

class Root {
  books = new Books();
  legacy = new Legacy();
  @expose() index() { return 'home'; }
}

const line = (r: { methods: readonly string[]; path: string; handler: string }) => `${r.methods.join(',')} ${r.path} ${r.handler}`;

test('a RestController is listed by its verbs, pages, custom actions and nested resources', () => {
  assert.deepEqual(routeMap(new Root()).map(line), [
    'ANY / Root.index',
    'ANY /index Root.index',
    'GET,HEAD /books/ Books.get_all',
    'GET,HEAD /books/new Books.new',
    'GET,HEAD /books/{id} Books.get_one',
    'GET,HEAD /books/{id}/edit Books.edit',
    'POST /books/ Books.post',
    'PUT /books/{id} Books.put',
    'DELETE /books/{id} Books.delete',
    'PATCH /books/{id} Books.patch',
    'POST /books/{id}/checkout Books.checkout',
    'GET,HEAD /books/stats Books.stats',
    'GET,HEAD /legacy/{id} Legacy.get_one',
    'ANY /legacy/* Legacy._route',
    'GET,HEAD /books/{book}/chapters/ Chapters.get_all',
    'GET,HEAD /books/{book}/chapters/{id} Chapters.get_one',
  ]);
});

test('every route the map lists is routed to the handler it names', async () => {
  const app = createKernel({ root: new Root(), logger: false }).use(restPlugin);
  await app.ready();
  try {
    for (const route of routeMap(app.root!)) {
      if (route.dynamic !== undefined || !route.handler.startsWith('Books') && !route.handler.startsWith('Chapters')) continue;
      const names: string[] = [];
      const path = route.path.replace(/\{(\w+)\}/g, (_all, name: string) => {
        names.push(name);
        return `${name}-${names.length}`;
      });
      for (const method of route.methods.filter((m) => m !== 'HEAD')) {
        const res = await app.inject({ method, url: path });
        assert.equal(res.statusCode, 200, `${method} ${path}: ${res.body}`);
        const body = res.json() as { handler: string; args: string[] };
        assert.equal(body.handler, route.handler.split('.')[1], `${method} ${path}`);
        // The ids reach the parameters the path names, in order.
        assert.deepEqual(body.args.slice(0, names.length), names.map((name, i) => `${name}-${i + 1}`), `${method} ${path}`);
      }
    }
  } finally {
    await app.close();
  }
});

test('with use_context_locals: false the ids are named after the parameters after the two', () => {
  const routes = routeMap({ books: new ExplicitBooks() }, { use_context_locals: false }).map(line);
  assert.deepEqual(routes, ['GET,HEAD /books/{id} ExplicitBooks.get_one', 'PUT /books/{id} ExplicitBooks.put']);
});

test('the OpenAPI document has the REST paths with their path parameters', async () => {
  const app = createKernel({ root: new Root(), logger: false }).use(restPlugin);
  await app.ready();
  try {
    const { paths } = openApiDocument(app);
    assert.deepEqual(Object.keys(paths['/books/{book}/chapters/{id}']!), ['get']);
    assert.deepEqual(
      (paths['/books/{book}/chapters/{id}']!['get']!['parameters'] as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`),
      ['path:book', 'path:id'],
    );
    assert.deepEqual(Object.keys(paths['/books/{id}']!).sort(), ['delete', 'get', 'patch', 'put']);
    // The id the path names stays there; what else PUT takes is a field of its body.
    assert.deepEqual((paths['/books/{id}']!['put']!['parameters'] as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`), ['path:id']);
    const put = paths['/books/{id}']!['put']!['requestBody'] as { content: Record<string, { schema: { properties: object } }> };
    assert.deepEqual(Object.keys(put.content['application/x-www-form-urlencoded']!.schema.properties), ['name']);
    assert.deepEqual(Object.keys(paths['/books/']!).sort(), ['get', 'post']);
  } finally {
    await app.close();
  }
});

// Contract v3: the forms pecan/rest.py routes — a nested resource right after its parent, PUT and
// DELETE actions named first, <verb>_<action>, post_<verb>.
class Final {
  @expose('json') index() { return answer('index'); }
  @expose('json') named() { return answer('named'); }
}
class Bazs extends RestController {
  final = new Final();
  @expose('json') get_one(foo: string, bar: string, id: string) { return answer('get_one', foo, bar, id); }
  @expose('json') post() { return answer('post'); }
  @expose('json') put(id: string) { return answer('put', id); }
}
class Bars extends RestController {
  bazs = new Bazs();
  @expose('json') get_one(foo: string, id: string) { return answer('get_one', foo, id); }
  @expose('json') post() { return answer('post'); }
  @expose('json') put(id: string) { return answer('put', id); }
}
class Foos extends RestController {
  static override _custom_actions = { update: ['PUT'], count: ['GET', 'POST'] };
  bars = new Bars();
  @expose('json') get_one(id: string) { return answer('get_one', id); }
  @expose('json') put(id: string) { return answer('put', id); }
  @expose('json') update(id: string) { return answer('update', id); }
  @expose('json') get_count() { return answer('get_count'); }
  @expose('json') count() { return answer('count'); }
  @expose('json') post_options() { return answer('post_options'); }
  @expose('json') post_delete(id: string) { return answer('post_delete', id); }
  @expose('json') post_patch(id: string) { return answer('post_patch', id); }
}

test('the route map shows the v3 forms: nested right after the parent, PUT actions first, get_count, post_<verb>', () => {
  assert.deepEqual(routeMap({ foos: new Foos() }).map(line), [
    'GET,HEAD /foos/{id} Foos.get_one',
    'PUT /foos/{id} Foos.put',
    'DELETE /foos/{id} Foos.post_delete',
    'PATCH /foos/{id} Foos.post_patch',
    'PUT /foos/update/{id} Foos.update',
    'GET,HEAD /foos/count Foos.get_count',
    'POST /foos/count Foos.count',
    'OPTIONS /foos/ Foos.post_options',
    'GET,HEAD /foos/{foo}/bars/{id} Bars.get_one',
    'POST /foos/bars/ Bars.post',
    'PUT /foos/bars/{id} Bars.put',
    'GET,HEAD /foos/{foo}/bars/{bar}/bazs/{id} Bazs.get_one',
    'POST /foos/bars/bazs/ Bazs.post',
    'PUT /foos/bars/bazs/{id} Bazs.put',
    'ANY /foos/bars/bazs/final/ Final.index',
    'ANY /foos/bars/bazs/final/index Final.index',
    'ANY /foos/bars/bazs/final/named Final.named',
  ]);
});

test('every v3 form the map lists is routed to the handler it names, ids in order', async () => {
  const app = createKernel({ root: { foos: new Foos() }, logger: false }).use(restPlugin);
  await app.ready();
  try {
    let checked = 0;
    for (const route of routeMap(app.root!)) {
      const values: string[] = [];
      const path = route.path.replace(/\{(\w+)\}/g, () => {
        values.push(`v${values.length + 1}`);
        return values.at(-1)!;
      });
      for (const method of route.methods.filter((m) => m !== 'HEAD' && m !== 'ANY').concat(route.methods.includes('ANY') ? ['GET'] : [])) {
        const res = await app.inject({ method, url: path });
        assert.equal(res.statusCode, 200, `${method} ${path}: ${res.body}`);
        const body = res.json() as { handler: string; args: string[] };
        assert.equal(body.handler, route.handler.split('.')[1], `${method} ${path}`);
        assert.deepEqual(body.args, values, `${method} ${path}`);
        checked++;
      }
    }
    assert.equal(checked, 17);
  } finally {
    await app.close();
  }
});
