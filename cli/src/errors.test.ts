import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HickoryError } from '@hickory/core';
import { CLI_ERRORS, cliError, oneLine } from './errors.ts';

test('CLI_ERRORS has exactly 7 codes, each HICKORY_ERR_CLI_* with a non-empty message', () => {
  const codes = Object.keys(CLI_ERRORS);
  assert.equal(codes.length, 7);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_CLI_[A-Z_]+$/);
    assert.ok(CLI_ERRORS[code as keyof typeof CLI_ERRORS].length > 0, code);
  }
  assert.ok(Object.isFrozen(CLI_ERRORS));
});

test('cliError fills the template and carries the code', () => {
  const error = cliError('HICKORY_ERR_CLI_EXISTS', '/srv/shop');
  assert.ok(error instanceof HickoryError);
  assert.equal(error.code, 'HICKORY_ERR_CLI_EXISTS');
  assert.equal(error.message, '/srv/shop already exists: choose a new folder name');
});

test('oneLine folds line breaks and their indentation into single spaces', () => {
  assert.equal(oneLine('Transform failed with 1 error:\n  x.ts:2:0: ERROR: Expected "}"\n'), 'Transform failed with 1 error: x.ts:2:0: ERROR: Expected "}"');
  assert.equal(oneLine('a\r\n\r\nb'), 'a b');
});
