import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { clientConnection, type ClientConnection } from './client-connection.ts';
import { compileTrustProxy, type TrustProxy } from './trust-proxy.ts';

interface FakeSocket {
  remoteAddress?: string;
  remotePort?: number;
  localAddress?: string;
  localPort?: number;
  encrypted?: boolean;
}

function raw(headers: Record<string, string>, socket: FakeSocket = {}): IncomingMessage {
  const fullSocket = { remoteAddress: '127.0.0.1', remotePort: 50000, localAddress: '127.0.0.1', localPort: 8080, ...socket };
  return { headers: { host: 'app.internal:8080', ...headers }, socket: fullSocket } as unknown as IncomingMessage;
}

function seen(trust: TrustProxy, headers: Record<string, string>, socket?: FakeSocket): Pick<ClientConnection, 'scheme' | 'host' | 'remoteAddr'> {
  const { scheme, host, remoteAddr } = clientConnection(raw(headers, socket), compileTrustProxy(trust));
  return { scheme, host, remoteAddr };
}

const DIRECT = { scheme: 'http', host: 'app.internal:8080', remoteAddr: '127.0.0.1' } as const;
const NGINX = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'books.example' };

test('trust_proxy off: socket and Host header only, whatever the headers say', () => {
  assert.deepEqual(clientConnection(raw(NGINX)), { ...DIRECT, remotePort: '50000', forwarded: false, hostForwarded: false });
  assert.deepEqual(seen(false, NGINX), DIRECT);
  assert.equal(clientConnection(raw({}, { encrypted: true })).scheme, 'https');
  // HTTP/1.0 without Host: the address the socket reached.
  const bare = { headers: {}, socket: { remoteAddress: '::1', localAddress: '::1', localPort: 9 } } as unknown as IncomingMessage;
  assert.equal(clientConnection(bare).host, '[::1]:9');
  assert.deepEqual(clientConnection({ headers: {} } as IncomingMessage), { scheme: 'http', host: '', remoteAddr: '', remotePort: '', forwarded: false, hostForwarded: false });
});

test('a Host header that is not a valid host[:port] is never handed out: the address the socket reached is', () => {
  for (const host of ['user@evil.example', 'evil.example/path?x=', '<b>x</b>', 'a b', '']) {
    assert.equal(clientConnection(raw({ host })).host, '127.0.0.1:8080', host);
    assert.equal(seen('loopback', { host }).host, '127.0.0.1:8080', host);
  }
  assert.equal(clientConnection(raw({ host: 'Books.Example:8443' })).host, 'Books.Example:8443');
});

test('a trusted socket peer: its report is believed', () => {
  assert.deepEqual(seen('loopback', NGINX), { scheme: 'https', host: 'books.example', remoteAddr: '203.0.113.7' });
  const connection = clientConnection(raw({ 'x-forwarded-for': '[2001:db8::7]:4711' }), compileTrustProxy(1));
  assert.equal(connection.remoteAddr, '2001:db8::7');
  assert.equal(connection.remotePort, '4711');
  assert.equal(connection.forwarded, true);
});

test('an untrusted socket peer: nothing is believed, not even the first report', () => {
  assert.deepEqual(seen('10.0.0.0/8', NGINX), DIRECT);
  assert.deepEqual(seen('loopback', NGINX, { remoteAddress: '198.51.100.9' }), { ...DIRECT, remoteAddr: '198.51.100.9' });
});

test('the walk stops at the first untrusted address: a forged left-most entry is never believed', () => {
  // The client 203.0.113.7 wrote "6.6.6.6, https" itself; nginx (loopback) appended the real ones.
  const forged = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7', 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'forged.example, books.example' };
  assert.deepEqual(seen('loopback', forged), { scheme: 'http', host: 'books.example', remoteAddr: '203.0.113.7' });
  // Two trusted proxies (nginx on loopback, a balancer at 10.0.0.5): the balancer's report wins.
  const chain = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.5', 'x-forwarded-proto': 'http, https, http' };
  assert.deepEqual(seen(['loopback', '10.0.0.0/8'], chain), { scheme: 'https', host: 'app.internal:8080', remoteAddr: '203.0.113.7' });
  // trust everything: the left-most entry, as asked.
  assert.deepEqual(seen(true, chain), { scheme: 'http', host: 'app.internal:8080', remoteAddr: '6.6.6.6' });
});

test('hop counts: that many hops from the socket are proxies', () => {
  const chain = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.5' };
  assert.equal(seen(1, chain).remoteAddr, '10.0.0.5');
  assert.equal(seen(2, chain).remoteAddr, '203.0.113.7');
  assert.equal(seen(3, chain).remoteAddr, '6.6.6.6');
  assert.equal(seen(9, chain).remoteAddr, '6.6.6.6');
  assert.equal(seen(2, chain, { remoteAddress: '198.51.100.9' }).remoteAddr, '203.0.113.7'); // a count trusts any address
});

test('a proxy that replaces X-Forwarded-Proto instead of appending: the farthest value given is used', () => {
  const chain = { 'x-forwarded-for': '203.0.113.7, 10.0.0.5', 'x-forwarded-proto': 'https' };
  assert.equal(seen(['loopback', '10.0.0.0/8'], chain).scheme, 'https');
});

test('IPv6 and IPv4-mapped sockets and CIDRs', () => {
  assert.equal(seen('loopback', NGINX, { remoteAddress: '::ffff:127.0.0.1' }).remoteAddr, '203.0.113.7');
  assert.equal(seen('loopback', NGINX, { remoteAddress: '::1' }).remoteAddr, '203.0.113.7');
  assert.equal(seen('fd00::/8', { 'x-forwarded-for': '2001:db8::9' }, { remoteAddress: 'fd12::3' }).remoteAddr, '2001:db8::9');
  assert.equal(seen('fd00::/8', { 'x-forwarded-for': '2001:db8::9' }, { remoteAddress: 'fe80::3' }).remoteAddr, 'fe80::3');
  assert.equal(seen('10.0.0.0/8', { 'x-forwarded-for': '203.0.113.7' }, { remoteAddress: '::ffff:10.9.8.7' }).remoteAddr, '203.0.113.7');
  assert.equal(seen(['10.0.0.0/8', 'loopback'], { 'x-forwarded-for': '203.0.113.7, ::ffff:10.0.0.2' }).remoteAddr, '203.0.113.7');
});

test('Forwarded (RFC 7239) is walked the same way: for, proto and host of each trusted element', () => {
  const headers = { forwarded: 'for=6.6.6.6;proto=https;host=forged.example, for=203.0.113.7;proto=https;host=books.example' };
  assert.deepEqual(seen('loopback', headers), { scheme: 'https', host: 'books.example', remoteAddr: '203.0.113.7' });
  assert.deepEqual(seen(true, headers), { scheme: 'https', host: 'forged.example', remoteAddr: '6.6.6.6' });
  assert.deepEqual(seen('loopback', { forwarded: 'for="[2001:db8::1]:80";proto=http' }), { ...DIRECT, remoteAddr: '2001:db8::1' });
});

test('Forwarded and X-Forwarded-* together: the X- headers win, Forwarded is ignored', () => {
  const headers = { forwarded: 'for=6.6.6.6;proto=https;host=forged.example', 'x-forwarded-for': '203.0.113.7' };
  assert.deepEqual(seen('loopback', headers), { ...DIRECT, remoteAddr: '203.0.113.7' });
});

test('malformed values are ignored, never an error: the socket values stay', () => {
  const bad: Array<Record<string, string>> = [
    { 'x-forwarded-for': 'not-an-ip', 'x-forwarded-proto': 'ftp', 'x-forwarded-host': 'evil.example/x' },
    { 'x-forwarded-for': '', 'x-forwarded-proto': '', 'x-forwarded-host': '' },
    { 'x-forwarded-for': ',,,', 'x-forwarded-proto': 'https://', 'x-forwarded-host': 'a b' },
    { forwarded: 'for=unknown;proto=javascript;host="a@b"' },
    { forwarded: 'for="broken' },
    { 'x-forwarded-for': '1.2.3.4.5', 'x-forwarded-host': 'host:99999' },
  ];
  for (const headers of bad) {
    const connection = clientConnection(raw(headers), compileTrustProxy(true));
    assert.deepEqual({ scheme: connection.scheme, host: connection.host, remoteAddr: connection.remoteAddr }, DIRECT, JSON.stringify(headers));
    assert.equal(connection.forwarded, false);
  }
  // An invalid address ends the walk, but what the trusted proxy said about scheme and host holds.
  assert.deepEqual(seen(true, { 'x-forwarded-for': '6.6.6.6, unknown', 'x-forwarded-proto': 'https' }), { ...DIRECT, scheme: 'https' });
});

test('only a scheme or a host forwarded: the address stays the socket peer', () => {
  const schemeOnly = clientConnection(raw({ 'x-forwarded-proto': 'https' }), compileTrustProxy(1));
  assert.deepEqual([schemeOnly.forwarded, schemeOnly.hostForwarded], [true, false]);
  assert.deepEqual(seen('loopback', { 'x-forwarded-proto': 'https' }), { ...DIRECT, scheme: 'https' });
  assert.deepEqual(seen('loopback', { 'x-forwarded-host': 'books.example:8443' }), { ...DIRECT, host: 'books.example:8443' });
});
