import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type Request, type Response, type Variables } from '@hickory/core';
import { dispatchPlugin, expose, openApiDocument, parameterIndex, wraps, type WrapperArgs } from '@hickory/dispatch';
import { mapArguments } from './arguments.ts';
import { parametersFor, parametersOf } from './parameters.ts';

// Decorators in their most literal form: each records what it received.
const received: unknown[][] = [];

function supplying(name: string, value: unknown) {
  return <This, A extends unknown[], R>(fn: (this: This, ...args: A) => R) =>
    wraps(fn, { supplies: [name], kwargs: true })(function (this: This, ...args) {
      received.push([...args]);
      const all = args as unknown[];
      all[parameterIndex(fn, name)] = value;
      return fn.apply(this, all as A);
    });
}

function collecting() {
  return <This, A extends unknown[], R>(fn: (this: This, ...args: A) => R) =>
    wraps(fn, { kwargs: true })(function (this: This, ...args) {
      received.push([...args]);
      const all = args as unknown[];
      all.pop();
      return fn.apply(this, all as A);
    });
}

function inserting(value: string) {
  return <This, A extends unknown[], R>(fn: (this: This, ...args: A) => R) =>
    wraps(fn, { inserts: 1 })(function (this: This, ...args) {
      received.push([...args]);
      return fn.apply(this, [value, ...args] as unknown as A);
    });
}

test('the plan of a stack: supplied names, the sum of the inserts, kwargs when any layer asks', () => {
  function handler(project: string, tenant: string, id: string, body: unknown, page = '1') {
    return { project, tenant, id, body, page };
  }
  const stacked = inserting('p')(inserting('t')(supplying('body', {})(collecting()(handler))));
  const params = parametersOf(stacked);
  assert.deepEqual(
    params.list.map((p) => [p.name, p.required, p.supplied === true]),
    [
      ['id', true, false],
      ['body', false, true],
      ['page', false, false],
    ],
  );
  assert.equal(params.positional, 2); // id and page: body takes no segment
  assert.equal(params.variablesLast, true);
  // Without context locals the request and the response come before the inserted ones.
  function explicit(_request: Request, _response: Response, project: string, id: string) {
    return { project, id };
  }
  assert.deepEqual(
    parametersFor(inserting('p')(explicit), true).list.map((p) => p.name),
    ['id'],
  );
  assert.equal(parametersOf(handler).variablesLast, false);
});

test('mapArguments: a supplied place stays undefined, takes no segment and is never missing; the variables come last, copied', () => {
  function post(uuid: string, chassis: unknown, limit = '10') {
    return { uuid, chassis, limit };
  }
  const wrapped = supplying('chassis', {})(post);
  const vars = Object.assign(Object.create(null) as Variables, { limit: '5', foo: '1' });
  const args = mapArguments(parametersOf(wrapped), ['u1'], () => vars);
  assert.deepEqual(args.slice(0, 3), ['u1', undefined, '5']);
  assert.deepEqual({ ...(args[3] as object) }, { limit: '5', foo: '1' });
  assert.equal('hasOwnProperty' in (args[3] as object), false); // inherits nothing from Object.prototype
  assert.notEqual(args[3], vars); // a wrapper may delete keys: the request's own stay
  // `limit` then 'x' would be a third segment: 404 (chassis takes none).
  assert.throws(() => mapArguments(parametersOf(wrapped), ['u1', '7', 'x'], () => vars), { status: 404 });
});

test('through a kernel: stacked wrappers get the convention (supplied place undefined, the same variables object down the stack)', async () => {
  received.length = 0;
  class Root {
    @expose('json')
    @supplying('body', { from: 'wrapper' })
    @collecting()
    create(id: string, body: unknown, tag = 'none') {
      return { id, body, tag };
    }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  try {
    const res = await app.inject({ method: 'POST', url: '/create/7?tag=a&extra=1' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { id: '7', body: { from: 'wrapper' }, tag: 'a' });
    assert.equal(received.length, 2);
    const [outer, inner] = received as [unknown[], unknown[]];
    assert.deepEqual(outer.slice(0, 3), ['7', undefined, 'a']);
    assert.deepEqual(inner.slice(0, 3), ['7', { from: 'wrapper' }, 'a']);
    assert.equal(outer[3], inner[3]); // the same object, passed down
    assert.deepEqual({ ...(inner[3] as object) }, { tag: 'a', extra: '1' });
    // The OpenAPI document lists what the request fills: not the supplied `body`.
    await app.ready();
    const op = openApiDocument(app).paths['/create/{id}'] ?? openApiDocument(app).paths['/create/'];
    assert.ok(op, Object.keys(openApiDocument(app).paths).join(', '));
    assert.equal(JSON.stringify(op).includes('"body"'), false);
  } finally {
    await app.close();
  }
});

test('types: the decorated method keeps its type; the wrapper is typed with what it receives', () => {
  function show(project: string, id: string, page = '1'): string {
    return `${project}/${id}/${page}`;
  }
  const decorated = wraps(show, { inserts: 1, kwargs: true })(function (id, page, kwargs) {
    const checked: [string, string | undefined, Variables] = [id, page, kwargs];
    return show('p', checked[0], checked[1]);
  });
  const same: (project: string, id: string, page?: string) => string = decorated;
  const args: WrapperArgs<[a: string, b: number], { inserts: 1; kwargs: true }> = [2, Object.create(null) as Variables];
  assert.equal(same.name, 'show');
  assert.equal(args[0], 2);
});

test('use_context_locals: false: parameterIndex(fn, name, request) counts the request and the response; inserted ones come after them', async () => {
  function body(name: string) {
    return <This, A extends unknown[], R>(fn: (this: This, ...args: A) => R) =>
      wraps(fn, { supplies: [name] })(function (this: This, ...args) {
        const all = args as unknown[];
        all[parameterIndex(fn, name, all[0] as Request)] = 'from the wrapper';
        return fn.apply(this, all as A);
      });
  }
  // Without context locals, the inserted argument goes after the request and the response.
  function project(value: string) {
    return <This, A extends unknown[], R>(fn: (this: This, ...args: A) => R) =>
      wraps(fn, { inserts: 1 })(function (this: This, ...args) {
        const [request, response, ...rest] = args as unknown[];
        return fn.apply(this, [request, response, value, ...rest] as unknown as A);
      });
  }
  class Root {
    @expose('json')
    @project('p1')
    @body('note')
    save(request: Request, _response: Response, project: string, id: string, note: string) {
      return { method: request.method, project, id, note };
    }
  }
  const app = createKernel({ root: new Root(), use_context_locals: false, logger: false }).use(dispatchPlugin);
  try {
    const res = await app.inject({ method: 'POST', url: '/save/7' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { method: 'POST', project: 'p1', id: '7', note: 'from the wrapper' });
  } finally {
    await app.close();
  }
});
