import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HickoryError } from '@hickory/core';
import { REST_ERRORS, restError } from './errors.ts';

test('REST_ERRORS has exactly 5 codes, each HICKORY_ERR_REST_* with a non-empty message', () => {
  const codes = Object.keys(REST_ERRORS);
  assert.equal(codes.length, 5);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_REST_[A-Z_]+$/);
    assert.ok(REST_ERRORS[code as keyof typeof REST_ERRORS].length > 0, code);
  }
  assert.ok(Object.isFrozen(REST_ERRORS));
});

test('restError fills the template and carries the code', () => {
  const error = restError('HICKORY_ERR_REST_ACTION_VERBS', 'Books', 'checkout', 'an array of 0');
  assert.ok(error instanceof HickoryError);
  assert.equal(error.code, 'HICKORY_ERR_REST_ACTION_VERBS');
  assert.equal(error.message, 'Books._custom_actions["checkout"] must be a non-empty list of HTTP methods, e.g. [\'POST\'] (got an array of 0).');
});
