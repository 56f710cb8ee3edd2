import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HickoryError } from '@hickory/core';
import { RENDERER_ERRORS, TemplateError, templateFailed } from '@hickory/renderer';
import { rendererError } from './errors.ts';

test('the renderer error table has exactly 6 codes, each with a message', () => {
  const codes = Object.keys(RENDERER_ERRORS);
  assert.equal(codes.length, 6);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_RENDERER_[A-Z_]+$/);
    assert.ok(RENDERER_ERRORS[code as keyof typeof RENDERER_ERRORS].length > 0, code);
  }
});

test('rendererError fills the message and keeps the code', () => {
  const error = rendererError('HICKORY_ERR_RENDERER_OPTIONS', 'ejs', '`cache` must be true or false');
  assert.ok(error instanceof HickoryError);
  assert.equal(error.code, 'HICKORY_ERR_RENDERER_OPTIONS');
  assert.equal(error.message, 'Renderer "ejs" got a bad option: `cache` must be true or false.');
});

test('templateFailed names the template, the engine and the line, and ignores later rewrites', () => {
  const cause = new TypeError('x is undefined');
  const error = templateFailed({ template: 'a.ejs', engine: 'ejs', line: 3, column: 7 }, cause);
  assert.ok(error instanceof TemplateError);
  assert.equal(error.message, 'Template "a.ejs" (engine "ejs") failed at line 3, column 7: TypeError: x is undefined');
  assert.equal(error.cause, cause);
  assert.deepEqual([error.template, error.engine, error.line, error.column], ['a.ejs', 'ejs', 3, 7]);
  error.message = 'rewritten by an engine';
  assert.equal(error.message, 'Template "a.ejs" (engine "ejs") failed at line 3, column 7: TypeError: x is undefined');
  assert.equal(templateFailed({ template: 'b', engine: 'e' }, 'text', 'detail').message, 'Template "b" (engine "e") failed: detail');
});
