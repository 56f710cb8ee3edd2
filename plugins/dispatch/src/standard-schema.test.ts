import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeSchema, isStandardSchema } from '@hickory/dispatch/kit';
import { plainIssues } from './issues.ts';
import * as v from 'valibot';
import { z } from 'zod';

const validate = () => ({ value: 1 });

test('isStandardSchema: zod, valibot and a hand-made schema (object or function); nothing else', () => {
  assert.equal(isStandardSchema(z.string()), true);
  assert.equal(isStandardSchema(v.string()), true);
  const fn = Object.assign(() => 1, { '~standard': { version: 1, vendor: 'fn', validate } });
  assert.equal(isStandardSchema(fn), true);
  for (const value of [null, undefined, 'string', 1, {}, { type: 'string' }, { '~standard': null }, { '~standard': { version: 2, validate } }, { '~standard': { version: 1 } }]) {
    assert.equal(isStandardSchema(value), false, JSON.stringify(value));
  }
});

test('describeSchema: the converter\'s JSON Schema without $schema; "schema" without a converter or when it throws', () => {
  assert.deepEqual(describeSchema(z.object({ a: z.string() })), { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
  assert.equal(describeSchema(v.string()), 'schema');
  const refusing = { '~standard': { version: 1 as const, vendor: 'x', validate, jsonSchema: { input: () => { throw new Error('cannot'); }, output: () => ({}) } } };
  assert.equal(describeSchema(refusing), 'schema');
});

test('plainIssues: message and path only, path segments as keys, prefixed', () => {
  const symbol = Symbol('s');
  const issues = plainIssues([{ message: 'bad', path: [{ key: 'a' }, 0, symbol] }, { message: 'worse' }], ['body']);
  assert.deepEqual(issues, [{ message: 'bad', path: ['body', 'a', 0, 'Symbol(s)'] }, { message: 'worse', path: ['body'] }]);
  assert.equal(JSON.stringify(issues), '[{"message":"bad","path":["body","a",0,"Symbol(s)"]},{"message":"worse","path":["body"]}]');
});
