import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MULTIPART_ERRORS, multipartError } from './errors.ts';

test('MULTIPART_ERRORS has exactly 2 codes, each HICKORY_ERR_MULTIPART_* with a message', () => {
  const codes = Object.keys(MULTIPART_ERRORS);
  assert.equal(codes.length, 2);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_MULTIPART_[A-Z_]+$/);
    assert.ok(MULTIPART_ERRORS[code as keyof typeof MULTIPART_ERRORS].length > 0);
  }
  const error = multipartError('HICKORY_ERR_MULTIPART_OPTION', 'limits.files', 'must be a positive integer');
  assert.equal(error.code, 'HICKORY_ERR_MULTIPART_OPTION');
  assert.equal(error.message, 'multipartPlugin option "limits.files" must be a positive integer.');
});
