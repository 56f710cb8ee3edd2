import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardedHost, forwardedNode, forwardedScheme } from './forwarded-values.ts';

test('a reported scheme is only http or https (any case); anything else is ignored', () => {
  assert.equal(forwardedScheme('https'), 'https');
  assert.equal(forwardedScheme(' HTTP '), 'http');
  for (const bad of [undefined, '', 'ftp', 'javascript', 'https:', 'https, http', 'ws']) assert.equal(forwardedScheme(bad), undefined, String(bad));
});

test('a reported host is a valid host[:port]; paths, userinfo, spaces and bad ports are ignored', () => {
  for (const good of ['books.example.com', 'books.example.com:8443', 'localhost', '127.0.0.1:8080', '[::1]', '[2001:db8::1]:443', 'my_host.internal']) {
    assert.equal(forwardedHost(good), good, good);
  }
  assert.equal(forwardedHost(' books.example '), 'books.example');
  for (const bad of [undefined, '', 'evil.example/path', 'user@evil.example', 'a b', 'host:0', 'host:65536', 'host:', 'host:80:80', '[::g]', '[::1', '-', '.example', 'a..b', 'host\r\nX: 1', '*', 'x'.repeat(300)]) {
    assert.equal(forwardedHost(bad), undefined, String(bad));
  }
});

test('a reported node is an IP address, with or without a port; names and garbage are not', () => {
  assert.deepEqual(forwardedNode('203.0.113.7'), { address: '203.0.113.7', port: '' });
  assert.deepEqual(forwardedNode('203.0.113.7:4711'), { address: '203.0.113.7', port: '4711' });
  assert.deepEqual(forwardedNode('2001:db8::17'), { address: '2001:db8::17', port: '' });
  assert.deepEqual(forwardedNode('[2001:db8::17]'), { address: '2001:db8::17', port: '' });
  assert.deepEqual(forwardedNode('[2001:db8::17]:4711'), { address: '2001:db8::17', port: '4711' });
  assert.deepEqual(forwardedNode('::ffff:192.0.2.1'), { address: '::ffff:192.0.2.1', port: '' });
  for (const bad of [undefined, '', 'unknown', '_hidden', 'evil.example', '999.1.1.1', '[203.0.113.7]', '[2001:db8::17]x', '203.0.113.7:port', '1.2.3.4:5:6', '[::1']) {
    assert.equal(forwardedNode(bad), undefined, String(bad));
  }
});
