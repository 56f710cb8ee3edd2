import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardedHops } from './forwarded-hops.ts';

test('X-Forwarded-* lists are read from the right: entry j is what the j-th proxy from the app wrote', () => {
  assert.deepEqual(forwardedHops({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1,10.0.0.2', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.example, b.example' }), [
    { for: '10.0.0.2', proto: 'https', host: 'b.example' },
    { for: '10.0.0.1', proto: undefined, host: 'a.example' },
    { for: '203.0.113.7', proto: undefined, host: undefined },
  ]);
  assert.deepEqual(forwardedHops({ 'x-forwarded-proto': 'https' }), [{ for: undefined, proto: 'https', host: undefined }]);
  assert.deepEqual(forwardedHops({ 'x-forwarded-for': ['203.0.113.7', '10.0.0.2'] }), [
    { for: '10.0.0.2', proto: undefined, host: undefined },
    { for: '203.0.113.7', proto: undefined, host: undefined },
  ]);
});

test('Forwarded (RFC 7239): one element per proxy, quoted values unquoted, nearest first', () => {
  assert.deepEqual(forwardedHops({ forwarded: 'for=203.0.113.7;proto=https;host=books.example, for="[2001:db8::1]:4711";proto=http;by=10.0.0.9' }), [
    { for: '[2001:db8::1]:4711', proto: 'http', host: undefined },
    { for: '203.0.113.7', proto: 'https', host: 'books.example' },
  ]);
  assert.deepEqual(forwardedHops({ forwarded: 'For=192.0.2.60;Proto=HTTPS' }), [{ for: '192.0.2.60', proto: 'HTTPS', host: undefined }]);
});

test('precedence: any X-Forwarded-* header wins, and then Forwarded is not read at all', () => {
  const headers = { forwarded: 'for=198.51.100.1;proto=https;host=forged.example', 'x-forwarded-for': '203.0.113.7' };
  assert.deepEqual(forwardedHops(headers), [{ for: '203.0.113.7', proto: undefined, host: undefined }]);
  assert.deepEqual(forwardedHops({ forwarded: 'for=198.51.100.1', 'x-forwarded-proto': 'http' }), [{ for: undefined, proto: 'http', host: undefined }]);
});

test('no header, or a Forwarded header that does not parse, gives no report (never an error)', () => {
  assert.deepEqual(forwardedHops({}), []);
  for (const bad of ['for=', 'for="unterminated', 'for=1.2.3.4;;', 'garbage', '=x', 'for=a b', ';', ',', 'for=1.2.3.4, ']) {
    assert.deepEqual(forwardedHops({ forwarded: bad }), [], bad);
  }
});

test('parameter names that are Object.prototype members neither leak nor pollute', () => {
  const hops = forwardedHops({ forwarded: '__proto__=x;constructor=y;for=203.0.113.7' });
  assert.deepEqual(hops, [{ for: '203.0.113.7', proto: undefined, host: undefined }]);
  assert.equal(({} as Record<string, unknown>)['for'], undefined);
  assert.deepEqual(forwardedHops({ forwarded: 'toString=1' }), [{ for: undefined, proto: undefined, host: undefined }]);
});
