import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCredentialName, maskedUrl } from './credential-names.ts';

test('a name holding token, secret, key, auth, session, password or cookie, any case, is a credential', () => {
  for (const name of ['Authorization', 'X-API-KEY', 'x-session-id', 'access_token', 'Client-Secret', 'PASSWORD', 'set-cookie', 'sec-websocket-key']) assert.ok(isCredentialName(name), name);
  for (const name of ['accept', 'x-trace', 'page', 'user', 'keep-alive', 'content-type']) assert.ok(!isCredentialName(name), name);
});

test('maskedUrl masks the values of credential-like query names only, escapes and all', () => {
  assert.equal(maskedUrl('/a'), '/a');
  assert.equal(maskedUrl('/a?'), '/a?');
  assert.equal(maskedUrl('/reset?token=abc&page=2'), '/reset?token=•••&page=2');
  assert.equal(maskedUrl('/l?pass%77ord=x&api+key=y&%zzkey=z&token'), '/l?pass%77ord=•••&api+key=•••&%zzkey=•••&token');
  assert.equal(maskedUrl('/l?next=/a?token=b'), '/l?next=/a?token=b');
});
