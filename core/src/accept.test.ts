import assert from 'node:assert/strict';
import { test } from 'node:test';
import { preferredType } from './accept.ts';

const HTML_FIRST = ['text/html', 'application/json'];

test('q-values rank the offered types; ties go to the type offered first', () => {
  assert.equal(preferredType('application/json,text/html;q=0.9,*/*;q=0.8', HTML_FIRST), 'application/json');
  assert.equal(preferredType('text/html;q=0.5, application/json;q=0.6', HTML_FIRST), 'application/json');
  assert.equal(preferredType('application/json, text/html', HTML_FIRST), 'text/html');
  assert.equal(preferredType('*/*', HTML_FIRST), 'text/html');
  assert.equal(preferredType('*/*;q=0.1, application/json', HTML_FIRST), 'application/json');
});

test('the most specific range decides a type\'s quality: type/subtype, then type/*, then */*', () => {
  assert.equal(preferredType('text/*;q=0.2, */*;q=0.9', HTML_FIRST), 'application/json');
  assert.equal(preferredType('text/html;q=0, */*', HTML_FIRST), 'application/json');
  assert.equal(preferredType('application/*', HTML_FIRST), 'application/json');
  assert.equal(preferredType('TEXT/HTML', HTML_FIRST), 'text/html');
});

test('parameters other than q are ignored; a malformed q drops its entry', () => {
  assert.equal(preferredType('application/json;discard=me', HTML_FIRST), 'application/json');
  assert.equal(preferredType('application/json; charset=latin1; q=0.5, text/html;q=0.4', HTML_FIRST), 'application/json');
  assert.equal(preferredType('text/html;q=2, application/json;q=0.1', HTML_FIRST), 'application/json');
  assert.equal(preferredType('text/html;q=abc', HTML_FIRST), false);
  assert.equal(preferredType('text/html;q=0.5;level=1;q=0', ['text/html']), 'text/html');
});

test('nothing acceptable → false: q=0, other types, garbage', () => {
  assert.equal(preferredType('image/png', HTML_FIRST), false);
  assert.equal(preferredType('text/html;q=0, application/json;q=0.000', HTML_FIRST), false);
  assert.equal(preferredType('garbage, /, text/, /html, ;;;', HTML_FIRST), false);
  assert.equal(preferredType('', HTML_FIRST), false);
});

test('hostile headers are read in linear time and only their first 64 entries count', () => {
  assert.equal(preferredType(`${'image/png,'.repeat(64)}text/html`, HTML_FIRST), false);
  assert.equal(preferredType(`application/json${';a=b'.repeat(3_000)}`, HTML_FIRST), 'application/json');
  assert.equal(preferredType(`*/*${' ;'.repeat(5_000)}`, HTML_FIRST), 'text/html');
});
