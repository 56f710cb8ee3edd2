import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, response, Response } from '@hickory/core';
import { dispatchPlugin, expose, when } from '@hickory/dispatch';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';

const JSON_TYPE = 'application/json; charset=utf-8';

const Book = z.object({
  id: z.number().int(),
  title: z.string().min(3),
  published: z.iso.datetime(),
  author: z.object({ name: z.string() }),
  tags: z.array(z.string()),
  editions: z.array(z.object({ year: z.number() })),
});

// What the handlers return: more than the schema declares, and a Date.
function book(): Record<string, unknown> {
  return {
    id: 7,
    title: 'Dune',
    published: new Date(Date.UTC(1965, 7, 1)),
    author: { name: 'Frank Herbert', password: 'x' },
    tags: ['sf', 'desert'],
    editions: [{ year: 1965, isbn: 'a' }, { year: 2005, isbn: 'b' }],
    internal: { cost: 3 },
  };
}
const BOOK_JSON =
  '{"id":7,"title":"Dune","published":"1965-08-01T00:00:00.000Z","author":{"name":"Frank Herbert"},"tags":["sf","desert"],"editions":[{"year":1965},{"year":2005}]}';

const ValibotBook = toStandardJsonSchema(v.object({ id: v.number(), tags: v.array(v.string()) }));

// A stand-in renderer on the public `render` hook: `tpl` templates show their namespace.
const fakeRenderer = definePlugin({
  name: 'fake-renderer',
  apply(kernel) {
    kernel.hooks.render.for('tpl').tap('fake-renderer', (job) => `<${job.template}>${JSON.stringify(job.namespace)}`);
  },
});

class Root {
  @expose('json', { response: Book }) book() { return book(); }
  @expose('json') plain() { return book(); }
  @expose('json', { response: Book }) async later() { return book(); }
  @expose('json', { response: ValibotBook }) valibot() { return { id: 1, tags: ['a'], secret: 's' }; }
  @expose('json', { response: Book }) @expose('page.tpl') both() { return book(); }
  @expose('json', { response: z.object({ id: z.string() }) }) @expose('json', { content_type: 'application/vnd.full+json' }) full() { return { id: '1', more: true }; }
  @expose('json', { response: z.object({ id: z.string() }) }) created() { response.status = 201; return { id: '9', x: 1 }; }
  @expose('json', { response: Book }) made() { return new Response({ body: 'made', status: 202 }); }
  @expose('json', { response: Book }) nothing() { response.status = 200; }
  @expose('json', { response: z.string() }) text() { return 'a "quoted" text'; }
  @expose('json', { response: Book }) wrong() { return { ...book(), title: 'No', tags: 'sf' }; }
  @expose('json', { response: Book }) short() { return { ...book(), title: 'No' }; }
  @expose({ generic: true, template: 'json', response: z.object({ id: z.number() }) }) item() { return { id: 1, extra: 'get' }; }
  @when('item', { method: 'POST' }) item_post() { return { created: true, id: 2 }; }
  @when('item', { method: 'PUT', template: 'json', response: z.object({ id: z.number() }) }) item_put() { return { id: 3, extra: 'put' }; }
}

function app(root: object = new Root(), logger: unknown = false) {
  return createKernel({ root, logger: logger as false }).use(dispatchPlugin).use(fakeRenderer);
}

function capture(): { logger: object; logged: string[] } {
  const logged: string[] = [];
  return { logged, logger: { info() {}, warn() {}, error: (_m: string, error: Error) => logged.push(error.message) } };
}

// Runs `body` with NODE_ENV set to `value`, restoring it after.
async function withNodeEnv(value: string, body: () => Promise<void>): Promise<void> {
  const saved = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = value;
  try {
    await body();
  } finally {
    if (saved === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = saved;
  }
}

test('a response schema writes exactly what it declares: extra fields left out at every depth, a Date as its ISO string', async () => {
  const a = app();
  for (const path of ['/book', '/later']) {
    const res = await a.inject(path);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], JSON_TYPE);
    assert.equal(res.body, BOOK_JSON);
  }
  await a.close();
});

test('a route without a response schema answers as before, every field included', async () => {
  const a = app();
  const res = await a.inject('/plain');
  assert.equal(res.body, JSON.stringify(book()));
  assert.match(res.body, /"internal":\{"cost":3\}/);
  await a.close();
});

test('a valibot schema wrapped with toStandardJsonSchema serializes too', async () => {
  const a = app();
  assert.equal((await a.inject('/valibot')).body, '{"id":1,"tags":["a"]}');
  await a.close();
});

test('the schema belongs to its JSON rendering: a template, or another JSON rendering, of the same method is untouched', async () => {
  const a = app();
  assert.equal((await a.inject({ url: '/both', headers: { accept: 'text/html' } })).body, `<page.tpl>${JSON.stringify(book())}`);
  assert.equal((await a.inject('/both.json')).body, BOOK_JSON);
  const full = await a.inject({ url: '/full', headers: { accept: 'application/vnd.full+json' } });
  assert.equal(full.body, '{"id":"1","more":true}');
  assert.equal((await a.inject({ url: '/full', headers: { accept: 'application/json' } })).body, '{"id":"1"}');
  await a.close();
});

test('a status, a Response, no value and a string keep their usual meaning', async () => {
  const a = app();
  const created = await a.inject('/created');
  assert.equal(created.statusCode, 201);
  assert.equal(created.body, '{"id":"9"}');
  const made = await a.inject('/made');
  assert.equal(made.statusCode, 202);
  assert.equal(made.body, 'made');
  assert.equal((await a.inject('/nothing')).statusCode, 204);
  assert.equal((await a.inject('/text')).body, '"a \\"quoted\\" text"');
  await a.close();
});

test('a when() handler uses its own response schema, never the generic method\'s', async () => {
  const a = app();
  assert.equal((await a.inject('/item')).body, '{"id":1}');
  assert.equal((await a.inject({ method: 'POST', url: '/item' })).body, '{"created":true,"id":2}');
  assert.equal((await a.inject({ method: 'PUT', url: '/item' })).body, '{"id":3}');
  await a.close();
});

test('outside production a value the schema rejects is a 500, logged with the method and the issues', async () => {
  const { logger, logged } = capture();
  const a = app(new Root(), logger);
  const res = await a.inject('/wrong');
  assert.equal(res.statusCode, 500);
  assert.equal(res.body, '{"code":500,"title":"Internal Server Error","description":"The server could not complete the request."}');
  assert.equal(logged.length, 1);
  assert.equal(
    logged[0],
    'Root.wrong returned a value that its response schema rejects (checked outside production only, as the JSON sent): ' +
      'title: Too small: expected string to have >=3 characters; tags: Invalid input: expected array, received string',
  );
  await a.close();
});

test('in production the value is not checked: the serializer writes it by the schema', async () => {
  await withNodeEnv('production', async () => {
    const a = app();
    const res = await a.inject('/short');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, BOOK_JSON.replace('"Dune"', '"No"'));
    await a.close();
  });
});

test('an asynchronous schema is awaited outside production', async () => {
  const converter = { input: () => ({ type: 'object' }), output: () => ({ type: 'object', properties: { ok: { type: 'boolean' } } }) };
  const slow = (accept: boolean) => ({
    '~standard': {
      version: 1 as const,
      vendor: 'test',
      validate: async (value: unknown) => (accept ? { value } : { issues: [{ message: 'Not today', path: [{ key: 'ok' }] }] }),
      jsonSchema: converter,
    },
  });
  class Slow {
    @expose('json', { response: slow(true) }) yes() { return { ok: true, no: 1 }; }
    @expose('json', { response: slow(false) }) no() { return { ok: true }; }
  }
  const { logger, logged } = capture();
  const a = app(new Slow(), logger);
  assert.equal((await a.inject('/yes')).body, '{"ok":true}');
  assert.equal((await a.inject('/no')).statusCode, 500);
  assert.match(logged[0]!, /^Slow\.no returned a value that its response schema rejects .*: ok: Not today$/);
  await a.close();
});

test('a schema whose library converts nothing to JSON Schema fails at ready(), naming the cause and the fix', async () => {
  class Bare {
    @expose('json', { response: v.object({ id: v.number() }) }) show() { return { id: 1 }; }
  }
  const a = app(new Bare());
  await assert.rejects(a.ready(), {
    code: 'HICKORY_ERR_DISPATCH_RESPONSE_CONVERTER',
    message:
      'Bare.show: its response schema (valibot) offers no JSON Schema converter ("~standard".jsonSchema.output, Standard JSON Schema of @standard-schema/spec 1.1), ' +
      'which its serializer is compiled from: wrap a valibot schema with toStandardJsonSchema() from @valibot/to-json-schema, ' +
      'or use a library whose schemas convert themselves (zod 4.2 or later, arktype).',
  });
  await a.close();
});

test('a schema its library cannot express as JSON Schema, or no schema at all, fails at ready()', async () => {
  class Dated {
    @expose('json', { response: z.object({ at: z.date() }) }) show() { return { at: new Date() }; }
  }
  const dated = app(new Dated());
  await assert.rejects(dated.ready(), {
    code: 'HICKORY_ERR_DISPATCH_RESPONSE_SCHEMA',
    message:
      'Dated.show: its response schema cannot serve as a serializer: its library cannot express it as JSON Schema (Date cannot be represented in JSON Schema). ' +
      'Describe the JSON that is sent, without transforms (a Date is sent as its ISO string: z.iso.datetime()).',
  });
  await dated.close();
  class NotSchema {
    @expose('json', { response: { type: 'object' } as never }) show() { return {}; }
  }
  const plain = app(new NotSchema());
  await assert.rejects(plain.ready(), { code: 'HICKORY_ERR_DISPATCH_NOT_A_SCHEMA', message: /^NotSchema\.show: response is an object/ });
  await plain.close();
});

test('a response schema is refused where it describes no JSON, and when given twice', () => {
  assert.throws(() => expose('page.tpl', { response: z.object({}) }), {
    message: `expose("page.tpl", {"response":"an object (ZodObject)"}): \`response\` describes a JSON answer: give it with the template 'json', e.g. expose('json', { response: schema })`,
  });
  assert.throws(() => expose({ response: 'x' as never }), { code: 'HICKORY_ERR_DISPATCH_EXPOSE_ARGS', message: /`response` must be a schema of the response/ });
  assert.throws(
    () => {
      class Twice {
        @expose('json', { response: z.object({}) }) @expose('json', { response: z.object({}), content_type: 'application/x+json' }) show() { return {}; }
      }
      return Twice;
    },
    { message: /a response schema is given twice/ },
  );
});

test('a method only _lookup reaches compiles its schema on first use, and a bad one is a logged 500', async () => {
  class Item {
    @expose('json', { response: z.object({ id: z.string() }) }) index() { return { id: 'x', y: 1 }; }
    @expose('json', { response: v.object({}) }) bad() { return {}; }
  }
  class Top {
    @expose() index() { return 'top'; }
    _lookup(_id: string, ...rest: string[]) { return [new Item(), rest]; }
  }
  const { logger, logged } = capture();
  const a = app(new Top(), logger);
  assert.equal((await a.inject('/a/')).body, '{"id":"x"}');
  assert.equal((await a.inject('/a/bad')).statusCode, 500);
  assert.match(logged[0]!, /^Item\.bad: its response schema \(valibot\) offers no JSON Schema converter/);
  await a.close();
});

test('with use_context_locals: false the handler\'s value is serialized the same way', async () => {
  class Explicit {
    @expose('json', { response: Book }) book(_request: unknown, _response: unknown) { return book(); }
  }
  const a = createKernel({ root: new Explicit(), logger: false, use_context_locals: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/book')).body, BOOK_JSON);
  await a.close();
});
