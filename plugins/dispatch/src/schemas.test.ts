import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, type Request, type Response } from '@hickory/core';
import { dispatchPlugin, expose, when, type ArgsOf } from '@hickory/dispatch';
import { handlerCallOf } from '@hickory/dispatch/kit';
import * as v from 'valibot';
import { z } from 'zod';

const JSON_TYPE = 'application/json; charset=utf-8';
const showArgs = { id: z.coerce.number().int() };
const newBook = z.object({ title: z.string().min(1), year: z.coerce.number().int() });
// An asynchronous schema: Standard Schema lets validate() return a promise.
const knownTag = {
  '~standard': {
    version: 1 as const,
    vendor: 'test',
    validate: async (value: unknown) => (value === 'dune' ? { value: value.toUpperCase() } : { issues: [{ message: 'Unknown tag', path: [] }] }),
  },
};

class Root {
  @expose({ template: 'json', args: showArgs }) show(id: ArgsOf<typeof showArgs>['id']) { return { id, type: typeof id }; }
  @expose({ args: { id: z.coerce.number().int() } }) page(id: number) { return `<p>${id}</p>`; }
  @expose({ template: 'json', args: { page: z.coerce.number().int().positive() } }) list(q: string, page = 1) { return { q, page }; }
  @expose({ template: 'json', args: { parts: z.array(z.string().regex(/^[a-z]+$/)) } }) files(...parts: string[]) { return parts; }
  @expose({ template: 'json', args: { tag: knownTag } }) tagged(tag: string) { return { tag }; }
  @expose({ template: 'json', args: { n: v.pipe(v.string(), v.transform(Number), v.number()) } }) valibot(n: number) { return { n }; }
  @expose({ template: 'json', body: newBook }) create(title: string, year: number, kwargs: Record<string, unknown>) { return { title, year, rest: { ...kwargs } }; }
  @expose({ generic: true, template: 'json' }) items() { return 'list'; }
  @when('items', { method: 'POST', args: { count: z.coerce.number().max(10) } }) items_post(count: number) { return { count }; }
}

function app(root: object = new Root()) {
  return createKernel({ root, logger: false }).use(dispatchPlugin);
}

type Kernel = ReturnType<typeof app>;
interface Rejection {
  code: number;
  title: string;
  description: string;
  issues: Array<{ message: string; path: Array<string | number> }>;
}

// The request must be answered by a JSON 400; its body is returned.
async function rejected(a: Kernel, request: Parameters<Kernel['inject']>[0]): Promise<Rejection> {
  const res = await a.inject(request);
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.headers['content-type'], JSON_TYPE);
  return res.json() as Rejection;
}

test('args: the handler receives the parsed value', async () => {
  const a = app();
  const res = await a.inject('/show/7');
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '{"id":7,"type":"number"}');
  assert.equal((await a.inject('/show?id=12')).body, '{"id":12,"type":"number"}');
  await a.close();
});

test('args: a rejected value is a JSON 400 naming the argument, with the issues — also for a client that asked for HTML', async () => {
  const a = app();
  for (const [url, accept] of [['/show/x', 'application/json'], ['/show/x', undefined], ['/page/x', 'text/html'], ['/page/x', undefined]] as const) {
    assert.deepEqual(await rejected(a, { url, headers: accept ? { accept } : {} }), {
      code: 400,
      title: 'Bad Request',
      description: 'Invalid argument "id": Invalid input: expected number, received NaN (at id).',
      issues: [{ message: 'Invalid input: expected number, received NaN', path: ['id'] }],
    });
  }
  await a.close();
});

test('args: a parameter with a default and no value keeps its default; a given value is validated', async () => {
  const a = app();
  assert.equal((await a.inject('/list?q=dune')).body, '{"q":"dune","page":1}');
  assert.equal((await a.inject('/list?q=dune&page=3')).body, '{"q":"dune","page":3}');
  const bad = await rejected(a, '/list?q=dune&page=0');
  assert.deepEqual(bad.issues, [{ message: 'Too small: expected number to be >0', path: ['page'] }]);
  await a.close();
});

test('args: a rest parameter is validated as the array of remaining segments', async () => {
  const a = app();
  assert.equal((await a.inject('/files/a/b')).body, '["a","b"]');
  const bad = await rejected(a, '/files/a/B2');
  assert.deepEqual(bad.issues.map((i: { path: unknown }) => i.path), [['parts', 1]]);
  await a.close();
});

test('args: asynchronous schemas and valibot schemas', async () => {
  const a = app();
  assert.equal((await a.inject('/tagged/dune')).body, '{"tag":"DUNE"}');
  const bad = await rejected(a, '/tagged/emma');
  assert.deepEqual(bad, { code: 400, title: 'Bad Request', description: 'Invalid argument "tag": Unknown tag (at tag).', issues: [{ message: 'Unknown tag', path: ['tag'] }] });
  assert.equal((await a.inject('/valibot/5')).body, '{"n":5}');
  const nan = await rejected(a, '/valibot/x');
  assert.equal(nan.issues[0].path[0], 'n');
  await a.close();
});

test('body: validated before the handler; its output fills named parameters (JSON and form)', async () => {
  const a = app();
  const json = await a.inject({ method: 'POST', url: '/create', payload: { title: 'Dune', year: '1965', extra: 1 } });
  assert.equal(json.statusCode, 200);
  // zod strips unknown keys: `extra` never reaches kwargs, the raw body's variables are not mapped.
  assert.equal(json.body, '{"title":"Dune","year":1965,"rest":{}}');
  const form = await a.inject({ method: 'POST', url: '/create?note=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'title=Emma&year=1815' });
  assert.equal(form.body, '{"title":"Emma","year":1815,"rest":{"note":"hi"}}');
  const bad = await rejected(a, { method: 'POST', url: '/create', payload: { title: '', year: 'soon' } });
  assert.deepEqual(bad, {
    code: 400,
    title: 'Bad Request',
    description: 'Invalid request body: Too small: expected string to have >=1 characters (at title) (and 1 more).',
    issues: [
      { message: 'Too small: expected string to have >=1 characters', path: ['title'] },
      { message: 'Invalid input: expected number, received NaN', path: ['year'] },
    ],
  });
  const none = await rejected(a, { method: 'POST', url: '/create' });
  assert.deepEqual(none.issues, [{ message: 'Invalid input: expected object, received undefined', path: [] }]);
  await a.close();
});

test('body: a __proto__ key reaches no prototype (a form; the kernel refuses it in JSON)', async () => {
  const loose = z.looseObject({ title: z.string() });
  class Loose {
    @expose({ template: 'json', body: loose, args: { kwargs: z.record(z.string(), z.string()) } })
    create(title: string, kwargs: Record<string, string>) { return { title, keys: Object.keys(kwargs), proto: Object.getPrototypeOf(kwargs) === Object.prototype }; }
  }
  const a = app(new Loose());
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const res = await a.inject({ method: 'POST', url: '/create?__proto__[a]=1&constructor=2', headers: form, payload: 'title=x&__proto__=y&toString=z' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { title: 'x', keys: ['__proto__[a]', 'constructor', 'toString'], proto: true });
  assert.equal(({} as Record<string, unknown>)['a'], undefined);
  const json = await a.inject({ method: 'POST', url: '/create', headers: { 'content-type': 'application/json' }, payload: '{"title":"x","__proto__":{"polluted":true}}' });
  assert.equal(json.statusCode, 400); // refused by the kernel's JSON parser, before any schema
  assert.equal((Object.prototype as Record<string, unknown>)['polluted'], undefined);
  await a.close();
});

test('when() handlers validate their own arguments', async () => {
  const a = app();
  const ok = await a.inject({ method: 'POST', url: '/items', payload: { count: '3' } });
  assert.equal(ok.body, '{"count":3}');
  const bad = await rejected(a, { method: 'POST', url: '/items', payload: { count: 30 } });
  assert.deepEqual(bad.issues, [{ message: 'Too big: expected number to be <=10', path: ['count'] }]);
  assert.equal((await a.inject('/items')).body, '"list"');
  await a.close();
});

test('use_context_locals: false — schemas name the parameters after request and response', async () => {
  class Explicit {
    @expose({ template: 'json', args: { id: z.coerce.number() } }) show(request: Request, _response: Response, id: number) { return { id, method: request.method }; }
  }
  const a = createKernel({ root: new Explicit(), use_context_locals: false, logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/show/4')).body, '{"id":4,"method":"GET"}');
  assert.equal((await a.inject('/show/four')).statusCode, 400);
  await a.close();
});

test('ready() fails for a value that is not a Standard Schema, naming it and the fix', async () => {
  class NotSchema {
    @expose({ template: 'json', args: { id: { type: 'number' } as never } }) show(id: number) { return id; }
  }
  await assert.rejects(app(new NotSchema()).ready(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_DISPATCH_NOT_A_SCHEMA');
    assert.match(error.message, /^NotSchema\.show: args\.id is an object \(Object\), not a Standard Schema .*e\.g\. args: \{ id: z\.coerce\.number\(\) \}\.$/);
    return true;
  });
  class NotBody {
    @expose({ template: 'json', body: { parse: () => 1 } as never }) create() { return 1; }
  }
  await assert.rejects(app(new NotBody()).ready(), /^HickoryError: NotBody\.create: body is an object \(Object\), not a Standard Schema/);
});

test('ready() fails for an args key that names no parameter, listing the parameters', async () => {
  class Typo {
    @expose({ template: 'json', args: { ident: z.string() } }) show(id: string) { return id; }
  }
  await assert.rejects(app(new Typo()).ready(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_DISPATCH_ARGS_UNKNOWN');
    assert.equal(error.message, 'Typo.show: args names "ident", which is no parameter of the handler (its parameters: id): rename the key or the parameter.');
    return true;
  });
  class ExplicitTypo {
    @expose({ args: { request: z.string() } }) show(request: Request, _response: Response, id: string) { return `${request.method}${id}`; }
  }
  const explicit = createKernel({ root: new ExplicitTypo(), use_context_locals: false, logger: false }).use(dispatchPlugin);
  await assert.rejects(explicit.ready(), /its parameters: id; with use_context_locals: false the first two receive the request and the response/);
});

test('expose()/when() refuse a malformed args or body option at once', () => {
  assert.throws(() => expose({ args: [z.string()] as never }), /`args` must be an object: parameter name → schema/);
  assert.throws(() => when('items', { method: 'POST', body: 3 as never }), /`body` must be true, false, or a schema of the body/);
  assert.throws(() => expose({ template: 'json', args: { id: z.string() }, nope: 1 } as never), /unknown option "nope" .*body, args, response, status, csrf\)/);
});

test('types: a schema output that fits no parameter is a compile error', () => {
  class Typed {
    // @ts-expect-error: the schema gives a number, the handler takes a string
    @expose({ args: { id: z.coerce.number() } }) show(id: string) { return id; }
    @expose({ args: { id: z.coerce.number() } }) fine(id: number) { return String(id); }
  }
  assert.ok(new Typed());
  const n: ArgsOf<typeof showArgs>['id'] = 1;
  // @ts-expect-error: the output type of z.coerce.number() is number
  const s: ArgsOf<typeof showArgs>['id'] = 'x';
  assert.equal(n + String(s).length, 2);
});

test('a plugin reading argumentsFor() of an asynchronously validated handler must await prepare() first', async () => {
  const seen: unknown[] = [];
  const a = app().use(definePlugin({
    name: 'audit',
    apply(kernel) {
      kernel.hooks.beforeHandle.tapPromise('audit', async (lookup, request, response) => {
        const call = handlerCallOf(lookup)!;
        if (request.path === '/tagged/dune') {
          assert.throws(() => call.argumentsFor(request, response), { code: 'HICKORY_ERR_DISPATCH_ARGS_PENDING', message: /^Root\.tagged: its schemas validate asynchronously/ });
        }
        await call.prepare(request, response);
        seen.push(call.argumentsFor(request, response));
        return undefined;
      });
    },
  }));
  assert.equal((await a.inject('/tagged/dune')).body, '{"tag":"DUNE"}');
  assert.equal((await a.inject('/show/3')).body, '{"id":3,"type":"number"}');
  await rejected(a, '/tagged/emma');
  assert.deepEqual(seen, [['DUNE'], [3]]);
  await a.close();
});
