// The Host header is client input (issue #29): it gets the host[:port] validation forwarded hosts
// get (invalid → 400, before any tap or handler), `request.host`/`host_url` never hand out a value
// that did not pass it, and `allowed_hosts` answers 400 for any host not listed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, request, type KernelConfig } from '@hickory/core';
import { createApp, expose } from '@hickory/app';
import { assertNothingUncaught, assertPrototypesUnchanged, listening, rawExchange } from './harness.ts';

let handled = 0;
class Root {
  @expose('json') where() {
    handled++;
    return { host: request.host, host_url: request.host_url };
  }
}

function app(config: KernelConfig = {}) {
  return createApp({ root: new Root(), logger: false, ...config });
}

const get = (host: string, path = '/where', extra = '') => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`;
const INVALID_MESSAGE = 'The Host header is not a valid host name with an optional port (such as books.example.com:8080).';

test('a Host that is not a valid host[:port] is a 400 before any handler, over a socket and inject()', async () => {
  const kernel = app();
  const port = await listening(kernel);
  try {
    const bad = ['user@evil.example', 'evil.example/path?x=', '<script>alert(1)</script>', 'evil example', '"evil.example"', 'evil.example:99999', 'evil.example:0', 'a..b', 'evil.example:', '[::g]', 'evil.example\\x'];
    for (const host of bad) {
      handled = 0;
      const answer = await rawExchange(port, get(host));
      assert.equal(answer.status, 400, host);
      assert.ok(answer.body.includes('not a valid host name'), `${host}: ${answer.body}`);
      assert.ok(!answer.body.includes('<script>') && !answer.body.includes('evil'), `${host}: the value is not repeated`);
      assert.equal(handled, 0, host);
      const injected = await kernel.inject({ url: '/where', headers: { host, accept: 'application/json' } });
      assert.equal(injected.statusCode, 400, host);
      assert.equal(injected.json().description, INVALID_MESSAGE);
      assert.equal(handled, 0, host);
    }
    // Behind a trusted proxy too: a valid forwarded host does not excuse an invalid Host.
    const trusted = app({ trust_proxy: 'loopback' });
    const proxied = await trusted.inject({ url: '/where', headers: { host: 'user@evil.example', 'x-forwarded-host': 'books.example' } });
    assert.equal(proxied.statusCode, 400);
    await trusted.close();
    assertNothingUncaught('invalid hosts');
    assertPrototypesUnchanged('invalid hosts');
    // Valid hosts, every form, are served and handed out as sent.
    for (const host of ['books.example.com', 'books.example.com:8443', 'localhost', '127.0.0.1:8080', '[::1]:8080', 'my_host.internal']) {
      const answer = await rawExchange(port, get(host));
      assert.equal(answer.status, 200, `${host}: ${answer.body}`);
      assert.equal(JSON.parse(answer.body).host, host);
    }
    const http10 = await rawExchange(port, 'GET /where HTTP/1.0\r\n\r\n');
    assert.equal(http10.status, 200);
    assert.equal(JSON.parse(http10.body).host, `127.0.0.1:${port}`);
  } finally {
    await kernel.close();
  }
});

test('allowed_hosts: listed names (any case, any port) and .domain subdomains only; others are 400', async () => {
  const kernel = app({ allowed_hosts: ['books.example.com', '.example.org', '127.0.0.1'] });
  const port = await listening(kernel);
  try {
    const served = ['books.example.com', 'BOOKS.Example.COM:8080', 'example.org', 'www.example.org', 'a.b.example.org:443', '127.0.0.1'];
    for (const host of served) {
      const res = await kernel.inject({ url: '/where', headers: { host } });
      assert.equal(res.statusCode, 200, `${host}: ${res.body}`);
      assert.equal(res.json().host, host);
    }
    const refused = ['evil.example', 'example.org.evil.example', 'notexample.org', 'books.example.com.evil', 'www.books.example.com', 'localhost'];
    for (const host of refused) {
      handled = 0;
      const res = await kernel.inject({ url: '/where', headers: { host, accept: 'application/json' } });
      assert.equal(res.statusCode, 400, host);
      assert.equal(res.json().description, `This server does not answer for the host "${host}" (allowed_hosts).`);
      assert.equal(handled, 0, host);
    }
    // Every path, not only routed ones: a 404 would tell a wrong host what exists.
    assert.equal((await kernel.inject({ url: '/no/such/page', headers: { host: 'evil.example' } })).statusCode, 400);
    // HTTP/1.0 without Host: the address the socket reached, which is listed here.
    assert.equal((await rawExchange(port, 'GET /where HTTP/1.0\r\n\r\n')).status, 200);
    assert.equal((await rawExchange(port, get('evil.example'))).status, 400);
  } finally {
    await kernel.close();
  }
});

test('allowed_hosts with trust_proxy checks the host the trusted proxy reports', async () => {
  const kernel = app({ allowed_hosts: ['.example.org'], trust_proxy: 'loopback' });
  try {
    const fromProxy = await kernel.inject({ url: '/where', headers: { host: 'backend:8080', 'x-forwarded-host': 'www.example.org', 'x-forwarded-proto': 'https' } });
    assert.equal(fromProxy.statusCode, 200, fromProxy.body);
    assert.deepEqual(fromProxy.json(), { host: 'www.example.org', host_url: 'https://www.example.org' });
    const forged = await kernel.inject({ url: '/where', headers: { host: 'www.example.org', 'x-forwarded-host': 'evil.example' } });
    assert.equal(forged.statusCode, 400);
    // From an address that is not trusted, the forwarded host is not read: Host decides.
    const direct = await kernel.inject({ url: '/where', remoteAddress: '203.0.113.9', headers: { host: 'www.example.org', 'x-forwarded-host': 'evil.example' } });
    assert.equal(direct.statusCode, 200);
    assert.equal(direct.json().host, 'www.example.org');
  } finally {
    await kernel.close();
  }
});

test('a malformed allowed_hosts fails at ready(), naming the key and the fix', async () => {
  const cases: Array<[unknown, RegExp]> = [
    ['books.example.com', /"allowed_hosts" must be a list of host names/],
    [[], /"allowed_hosts" is an empty list, which would refuse every request/],
    [['*.example.com'], /"allowed_hosts" has "\*\.example\.com", which is a wildcard: write "\.example\.com"/],
    [['*'], /"allowed_hosts" has "\*", which is a wildcard/],
    [['https://books.example.com'], /has "https:\/\/books\.example\.com", which is a URL/],
    [['books.example.com:8080'], /has "books\.example\.com:8080", which has a port/],
    [['books example'], /which is not a valid host name/],
    [[''], /which is not a host name/],
    [[42], /has 42, which is not a host name/],
  ];
  for (const [value, message] of cases) {
    const kernel = createKernel({ logger: false, allowed_hosts: value as string[] });
    await assert.rejects(kernel.ready(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'HICKORY_ERR_CONFIG_VALUE', String(value));
      assert.match(error.message, message);
      return true;
    });
    await kernel.close();
  }
});
