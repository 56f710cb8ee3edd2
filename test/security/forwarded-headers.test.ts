import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { test } from 'node:test';
import fc from 'fast-check';
import { createKernel, definePlugin, type Kernel } from '@hickory/core';
import { assertNothingUncaught, assertPrototypesUnchanged } from './harness.ts';

// Forwarding headers are client input once a proxy passes them on. Fuzzed X-Forwarded-* and
// Forwarded values, through every kind of trust_proxy: always a 200, a scheme that is http or
// https, a host that is the Host header or a valid host[:port], an address that is an IP address,
// the environ agreeing, nothing uncaught, prototypes untouched. Fixed seed, bounded runs.

const seed = Number(process.env['HICKORY_FUZZ_SEED'] ?? 20261125);
const runs = Number(process.env['HICKORY_FUZZ_RUNS'] ?? 150);

const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::\d{1,5})?$/;
const PIECES = ['for=', 'proto=', 'host=', 'by=', ';', ',', ' ', '"', '\\', '[', ']', ':', '=', '__proto__', 'constructor', 'https', 'http', 'unknown', '_hidden', '203.0.113.7', '::1', '::ffff:127.0.0.1', '2001:db8::1', '127.0.0.1', 'books.example', '443', '%', '/', '@'];
const value = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
);
const headers = fc.record(
  { 'x-forwarded-for': value, 'x-forwarded-proto': value, 'x-forwarded-host': value, forwarded: value },
  { requiredKeys: [] },
);

const seen = definePlugin({
  name: 'seen',
  apply(kernel) {
    kernel.hooks.route.tap('seen', () => ({
      target: 'seen',
      handle: (request) => {
        const env = request.environ;
        return { scheme: request.scheme, host: request.host, remote_addr: request.remote_addr, env: [env['wsgi.url_scheme'], env['REMOTE_ADDR']] };
      },
    }));
  },
});

test('fuzzed forwarding headers never break a request, whatever trust_proxy says', async () => {
  const apps: Kernel[] = [];
  for (const trust_proxy of [false, true, 2, 'loopback', ['10.0.0.0/8', '::1']]) {
    apps.push(createKernel({ logger: false, trust_proxy }).use(seen));
  }
  try {
    await fc.assert(
      fc.asyncProperty(fc.nat(apps.length - 1), headers, fc.constantFrom('127.0.0.1', '::ffff:127.0.0.1', '10.1.2.3', '203.0.113.9'), async (which, sent, remoteAddress) => {
        const context = `${JSON.stringify(sent)} from ${remoteAddress} (app ${which})`;
        const res = await apps[which]!.inject({ url: '/', headers: { host: 'app.internal', ...sent }, remoteAddress });
        assert.equal(res.statusCode, 200, `${context}: ${res.body}`);
        const body = res.json() as { scheme: string; host: string; remote_addr: string; env: string[] };
        assert.ok(body.scheme === 'http' || body.scheme === 'https', context);
        assert.ok(body.host === 'app.internal' || HOST_SYNTAX.test(body.host), `${context}: host ${body.host}`);
        assert.ok(isIP(body.remote_addr) !== 0, `${context}: address ${body.remote_addr}`);
        assert.deepEqual(body.env, [body.scheme, body.remote_addr], context);
        if (which === 0) assert.deepEqual([body.scheme, body.host, body.remote_addr], ['http', 'app.internal', remoteAddress], context);
        assertNothingUncaught(context);
        assertPrototypesUnchanged(context);
      }),
      { seed, numRuns: runs },
    );
  } finally {
    for (const app of apps) await app.close();
  }
});
