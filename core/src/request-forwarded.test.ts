import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { HookMap, AsyncSeriesBailHook } from 'tapable';
import { createKernel, Request, type BodyParseResult, type KernelConfig } from './index.ts';
import type { TrustHop } from './trust-proxy.ts';
import { handle } from './fixtures/harness.ts';

const ENVIRON_KEYS = ['wsgi.url_scheme', 'HTTP_HOST', 'SERVER_NAME', 'SERVER_PORT', 'REMOTE_ADDR', 'REMOTE_PORT'];

// What a handler sees of the client's connection, and the environ keys that must agree with it.
function seenBy(request: Request) {
  const { scheme, host, remote_addr, host_url, environ } = request;
  return { scheme, host, remote_addr, host_url, env: ENVIRON_KEYS.map((key) => environ[key]) };
}

async function inject(config: KernelConfig, headers: Record<string, string>, remoteAddress = '127.0.0.1') {
  const app = createKernel({ logger: false, ...config }).use(handle((request) => seenBy(request)));
  try {
    const res = await app.inject({ url: '/', headers, remoteAddress });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  } finally {
    await app.close();
  }
}

const NGINX = { host: 'books.example', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };

test('trust_proxy off: the socket and the Host header, forwarding headers ignored', async () => {
  assert.deepEqual(await inject({}, NGINX), {
    scheme: 'http',
    host: 'books.example',
    remote_addr: '127.0.0.1',
    host_url: 'http://books.example',
    // No port in Host: SERVER_PORT is the socket's (none under inject), as before trust_proxy existed.
    env: ['http', 'books.example', 'books.example', '', '127.0.0.1', ''],
  });
});

test('trust_proxy loopback behind nginx: scheme, address and environ from its headers', async () => {
  assert.deepEqual(await inject({ trust_proxy: 'loopback' }, NGINX), {
    scheme: 'https',
    host: 'books.example',
    remote_addr: '203.0.113.7',
    host_url: 'https://books.example',
    env: ['https', 'books.example', 'books.example', '443', '203.0.113.7', ''],
  });
  const hosted = await inject({ trust_proxy: 1 }, { ...NGINX, 'x-forwarded-host': 'shop.example:8443' });
  assert.equal(hosted.host, 'shop.example:8443');
  assert.equal(hosted.host_url, 'https://shop.example:8443');
  assert.deepEqual(hosted.env.slice(0, 4), ['https', 'shop.example:8443', 'shop.example', '8443']);
});

test('an untrusted peer cannot forge any of it', async () => {
  const forged = { ...NGINX, 'x-forwarded-host': 'evil.example', forwarded: 'for=6.6.6.6;proto=https;host=evil.example' };
  const seen = await inject({ trust_proxy: ['loopback', '10.0.0.0/8'] }, forged, '198.51.100.9');
  assert.deepEqual([seen.scheme, seen.host, seen.remote_addr], ['http', 'books.example', '198.51.100.9']);
  assert.deepEqual(seen.env.slice(0, 5), ['http', 'books.example', 'books.example', '', '198.51.100.9']);
});

test('Forwarded (RFC 7239) through inject, and the X- headers winning over it', async () => {
  const rfc = await inject({ trust_proxy: 'loopback' }, { host: 'app.internal', forwarded: 'for="[2001:db8::5]:4711";proto=https;host=books.example' });
  assert.deepEqual([rfc.scheme, rfc.host, rfc.remote_addr, rfc.env[5]], ['https', 'books.example', '2001:db8::5', '4711']);
  const both = await inject({ trust_proxy: 'loopback' }, { host: 'app.internal', forwarded: 'for=6.6.6.6;proto=https', 'x-forwarded-for': '203.0.113.7' });
  assert.deepEqual([both.scheme, both.host, both.remote_addr], ['http', 'app.internal', '203.0.113.7']);
});

test('malformed forwarding headers from a trusted proxy: ignored, 200, no prototype touched', async () => {
  const bad = { host: 'books.example', 'x-forwarded-for': '__proto__', 'x-forwarded-proto': 'constructor', 'x-forwarded-host': 'a/b' };
  const seen = await inject({ trust_proxy: true }, bad);
  assert.deepEqual([seen.scheme, seen.host, seen.remote_addr], ['http', 'books.example', '127.0.0.1']);
  const rfc = await inject({ trust_proxy: true }, { host: 'books.example', forwarded: '__proto__=1;for="' });
  assert.equal(rfc.remote_addr, '127.0.0.1');
  assert.equal(({} as Record<string, unknown>)['1'], undefined);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});

test('IPv4-mapped socket addresses are trusted as their IPv4 address', async () => {
  const seen = await inject({ trust_proxy: ['10.0.0.0/8'] }, NGINX, '::ffff:10.1.2.3');
  assert.equal(seen.remote_addr, '203.0.113.7');
  assert.equal((await inject({ trust_proxy: ['10.0.0.0/8'] }, NGINX, '::ffff:11.1.2.3')).remote_addr, '::ffff:11.1.2.3');
});

test('host_url leaves out the default port of the scheme only', async () => {
  assert.equal((await inject({}, { host: 'books.example:80' })).host_url, 'http://books.example');
  assert.equal((await inject({}, { host: 'books.example:443' })).host_url, 'http://books.example:443');
  assert.equal((await inject({ trust_proxy: 1 }, { host: 'books.example:443', 'x-forwarded-proto': 'https' })).host_url, 'https://books.example');
  assert.equal((await inject({}, { host: '[::1]:80' })).host_url, 'http://[::1]');
});

function bareRequest(headers: Record<string, string>, trustProxy: TrustHop) {
  const socket = { remoteAddress: '127.0.0.1', localAddress: '127.0.0.1', localPort: 8080 };
  const raw = { method: 'GET', url: '/', httpVersion: '1.0', headers, socket };
  const bodyParsers = new HookMap(() => new AsyncSeriesBailHook<[Request], BodyParseResult | undefined>(['request']));
  return new Request(raw as unknown as IncomingMessage, { bodyLimit: 1, paramLimit: 1, bodyParsers, trustProxy });
}

test('lazy: nothing is parsed until scheme, host, remote_addr or environ is read, then once', () => {
  const calls: Array<[string, number]> = [];
  const request = bareRequest({ host: 'h', 'x-forwarded-for': '203.0.113.7' }, (address, hop) => (calls.push([address, hop]), true));
  assert.equal(request.path, '/');
  assert.deepEqual(calls, []);
  assert.equal(request.remote_addr, '203.0.113.7');
  assert.equal(request.scheme, 'http');
  assert.equal(request.environ['REMOTE_ADDR'], '203.0.113.7');
  assert.deepEqual(calls, [['127.0.0.1', 0]]);
});

test('HTTP/1.0 without Host, only the scheme forwarded: no HTTP_HOST is made up', () => {
  const request = bareRequest({ 'x-forwarded-proto': 'https' }, () => true);
  const env = request.environ;
  assert.deepEqual([env['wsgi.url_scheme'], env['HTTP_HOST'], env['SERVER_NAME'], env['SERVER_PORT']], ['https', undefined, '127.0.0.1', '8080']);
  assert.equal(request.host_url, 'https://127.0.0.1:8080');
});

test('a real socket behind a trusted local proxy (fetch from 127.0.0.1)', async () => {
  const app = createKernel({ logger: false, trust_proxy: 'loopback' }).use(handle((request) => seenBy(request)));
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const res = await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'books.example' } });
    const seen = (await res.json()) as ReturnType<typeof seenBy>;
    assert.deepEqual([seen.scheme, seen.host, seen.remote_addr, seen.host_url], ['https', 'books.example', '203.0.113.7', 'https://books.example']);
  } finally {
    await app.close();
  }
});
