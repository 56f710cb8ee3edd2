import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INPUT_OBJECT_PROTOTYPE, inputObject } from './input-object.ts';

test('an input object inherits nothing from Object.prototype and prints as [object Object]', () => {
  const input = inputObject<string>();
  input['name'] = 'Dune';
  assert.equal(input instanceof Object, false);
  assert.equal(Object.getPrototypeOf(INPUT_OBJECT_PROTOTYPE), null);
  assert.equal('hasOwnProperty' in input, false);
  assert.equal(`${input}`, '[object Object]');
  assert.equal(String(input), '[object Object]');
  assert.equal(input.toString(), '[object Object]');
  assert.deepEqual(Object.keys(input), ['name']);
  assert.equal(JSON.stringify(input), '{"name":"Dune"}');
});

test('keys named like the printing methods are ordinary own keys', () => {
  const input = inputObject<string>();
  input['toString'] = '1';
  assert.deepEqual(Object.entries(input), [['toString', '1']]);
  // Printing does not go through the own key: Symbol.toPrimitive comes first.
  assert.equal(`${input}`, '[object Object]');
  assert.equal(inputObject().toString(), '[object Object]', 'the shared prototype is untouched');
});

test('the shared prototype cannot be changed', () => {
  assert.ok(Object.isFrozen(INPUT_OBJECT_PROTOTYPE));
  assert.throws(() => {
    (INPUT_OBJECT_PROTOTYPE as Record<string, unknown>)['polluted'] = 1;
  }, TypeError);
  assert.equal((inputObject() as Record<string, unknown>)['polluted'], undefined);
});
