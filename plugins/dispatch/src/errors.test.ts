import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DISPATCH_ERRORS } from '@hickory/dispatch';
import { dispatchError } from './errors.ts';

test('the dispatch error table has 34 codes, each with a message', () => {
  const codes = Object.keys(DISPATCH_ERRORS);
  assert.equal(codes.length, 34);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_DISPATCH_[A-Z_]+$/);
    assert.ok(DISPATCH_ERRORS[code as keyof typeof DISPATCH_ERRORS].length > 0, code);
  }
  assert.ok(Object.isFrozen(DISPATCH_ERRORS));
  const error = dispatchError('HICKORY_ERR_DISPATCH_SEGMENT', '"a/b"', 'why');
  assert.equal(error.code, 'HICKORY_ERR_DISPATCH_SEGMENT');
  assert.equal(error.message, 'Invalid route segment "a/b": why');
});
