import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Response } from './response.ts';
import { varyOn } from './vary.ts';

test('varyOn adds a field once, keeps the others, and leaves Vary: * alone', () => {
  const response = new Response();
  varyOn(response, 'Accept');
  assert.equal(response.headers['Vary'], 'Accept');
  varyOn(response, 'accept');
  assert.equal(response.headers['Vary'], 'Accept');
  varyOn(response, 'Accept-Encoding');
  assert.equal(response.headers['Vary'], 'Accept, Accept-Encoding');
  const lines = new Response();
  lines.headerMap.set('Vary', ['Origin ', 'Cookie']);
  varyOn(lines, 'Accept');
  assert.equal(lines.headers['Vary'], 'Origin, Cookie, Accept');
  varyOn(lines, 'COOKIE');
  assert.equal(lines.headers['Vary'], 'Origin, Cookie, Accept');
  const any = new Response();
  any.headers['Vary'] = '*';
  varyOn(any, 'Accept');
  assert.equal(any.headers['Vary'], '*');
  // A field whose name only starts like another is another field.
  const prefix = new Response();
  prefix.headers['Vary'] = 'Accept-Encoding';
  varyOn(prefix, 'Accept');
  assert.equal(prefix.headers['Vary'], 'Accept-Encoding, Accept');
});
