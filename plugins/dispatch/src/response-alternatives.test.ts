// Response schemas with alternatives (`.nullable()`, unions, discriminated unions), zod and
// valibot: an extra property is left out as for a plain object schema (it made the serializer
// throw, a 500), null is written as null, and each branch writes its own properties.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { serializableSchema } from './response-json-schema.ts';

const zodA = z.object({ kind: z.literal('a'), a: z.number() });
const zodB = z.object({ kind: z.literal('b'), b: z.string(), inner: z.object({ x: z.number() }).nullable() });
const valA = v.object({ kind: v.literal('a'), a: v.number() });
const valB = v.object({ kind: v.literal('b'), b: v.string(), inner: v.nullable(v.object({ x: v.number() })) });

// What the handlers return: each value has properties its schema does not declare.
const EXTRA_A = { kind: 'a', a: 1, secret: 's' };
const EXTRA_B = { kind: 'b', b: 'x', inner: { x: 2, hidden: true }, secret: 's' };
const A_JSON = '{"kind":"a","a":1}';
const B_JSON = '{"kind":"b","b":"x","inner":{"x":2}}';

let nextValue: unknown;
const answer = () => nextValue;

class Root {
  @expose('json', { response: z.object({ id: z.number() }).nullable() }) zod_nullable() { return answer(); }
  @expose('json', { response: z.union([zodA, zodB]) }) zod_union() { return answer(); }
  @expose('json', { response: z.discriminatedUnion('kind', [zodA, zodB]) }) zod_discriminated() { return answer(); }
  @expose('json', { response: z.object({ item: z.union([zodA, zodB]).nullable() }) }) zod_nested() { return answer(); }
  @expose('json', { response: toStandardJsonSchema(v.nullable(v.object({ id: v.number() }))) }) valibot_nullable() { return answer(); }
  @expose('json', { response: toStandardJsonSchema(v.union([valA, valB])) }) valibot_union() { return answer(); }
  @expose('json', { response: toStandardJsonSchema(v.variant('kind', [valA, valB])) }) valibot_variant() { return answer(); }
  @expose('json', { response: z.union([z.strictObject({ id: z.number() }), z.null()]) }) zod_strict() { return answer(); }
}

// Each case: the path, the value returned, the exact body expected.
const CASES: Array<[string, unknown, string]> = [
  ['/zod_nullable', { id: 1, extra: 2 }, '{"id":1}'],
  ['/zod_nullable', null, 'null'],
  ['/zod_union', EXTRA_A, A_JSON],
  ['/zod_union', EXTRA_B, B_JSON],
  ['/zod_union', { ...EXTRA_B, inner: null }, '{"kind":"b","b":"x","inner":null}'],
  ['/zod_discriminated', EXTRA_A, A_JSON],
  ['/zod_discriminated', EXTRA_B, B_JSON],
  ['/zod_nested', { item: EXTRA_B, more: 1 }, `{"item":${B_JSON}}`],
  ['/zod_nested', { item: null, more: 1 }, '{"item":null}'],
  ['/valibot_nullable', { id: 1, extra: 2 }, '{"id":1}'],
  ['/valibot_nullable', null, 'null'],
  ['/valibot_union', EXTRA_A, A_JSON],
  ['/valibot_union', EXTRA_B, B_JSON],
  ['/valibot_variant', EXTRA_A, A_JSON],
  ['/valibot_variant', EXTRA_B, B_JSON],
  ['/zod_strict', null, 'null'],
];

async function answers(nodeEnv: string): Promise<void> {
  const saved = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = nodeEnv;
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  try {
    await app.ready();
    for (const [path, value, body] of CASES) {
      nextValue = value;
      const res = await app.inject(path);
      assert.equal(res.statusCode, 200, `${path} ${JSON.stringify(value)} (${nodeEnv}): ${res.body}`);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.body, body, `${path} ${JSON.stringify(value)} (${nodeEnv})`);
    }
  } finally {
    await app.close();
    if (saved === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = saved;
  }
}

test('nullable and union response schemas (zod, valibot) leave extra properties out and write null, checked outside production', () => answers('test'));

test('… and the same in production, where the value is not checked first', () => answers('production'));

test('a strict object in a union still refuses an extra property where values are checked (outside production), naming it', async () => {
  const logged: string[] = [];
  const logger = { info() {}, warn() {}, error: (_m: string, error: Error) => void logged.push(error.message) };
  const app = createKernel({ root: new Root(), logger }).use(dispatchPlugin);
  try {
    nextValue = { id: 1, extra: 2 };
    const res = await app.inject('/zod_strict');
    assert.equal(res.statusCode, 500);
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /^Root\.zod_strict returned a value that its response schema rejects .*extra/);
  } finally {
    await app.close();
  }
});

test('serializableSchema drops additionalProperties: false at every depth, keeps other values and a property of that name, and copies', () => {
  const input = {
    anyOf: [
      {
        type: 'object',
        properties: { additionalProperties: { type: 'string' }, deep: { type: 'object', properties: {}, additionalProperties: false } },
        additionalProperties: false,
      },
      { type: 'object', additionalProperties: { type: 'number' } },
      { type: 'null' },
    ],
    definitions: { Node: { type: 'object', additionalProperties: false } },
  };
  const before = JSON.stringify(input);
  assert.deepEqual(serializableSchema(input), {
    anyOf: [
      { type: 'object', properties: { additionalProperties: { type: 'string' }, deep: { type: 'object', properties: {} } } },
      { type: 'object', additionalProperties: { type: 'number' } },
      { type: 'null' },
    ],
    definitions: { Node: { type: 'object' } },
  });
  assert.equal(JSON.stringify(input), before);
});
