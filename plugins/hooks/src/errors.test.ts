import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HickoryError } from '@hickory/core';
import { HOOKS_ERRORS } from './index.ts';
import { hooksError } from './errors.ts';

test('HOOKS_ERRORS has exactly 9 codes, each HICKORY_ERR_HOOKS_* with a non-empty message', () => {
  const codes = Object.keys(HOOKS_ERRORS);
  assert.equal(codes.length, 9);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_HOOKS_[A-Z_]+$/);
    assert.ok(HOOKS_ERRORS[code as keyof typeof HOOKS_ERRORS].length > 0, code);
  }
  assert.ok(Object.isFrozen(HOOKS_ERRORS));
});

test('hooksError fills the template and carries the code', () => {
  const error = hooksError('HICKORY_ERR_HOOKS_LIST', 'item 2 is null, which has no hook method');
  assert.ok(error instanceof HickoryError);
  assert.equal(error.code, 'HICKORY_ERR_HOOKS_LIST');
  assert.equal(
    error.message,
    'Hooks must be given as a list of hooks (instances of Hook, or objects with on_route, before, after or on_error methods, and a finite priority when they have one): item 2 is null, which has no hook method.',
  );
});
