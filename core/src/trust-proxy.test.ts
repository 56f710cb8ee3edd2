import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTrustProxy } from './trust-proxy.ts';
import { createKernel } from './index.ts';

test('trust_proxy off (left out, false, 0, []) compiles to nothing: no header is ever read', () => {
  for (const off of [undefined, false, 0, []]) assert.equal(compileTrustProxy(off), undefined, String(off));
});

test('trust_proxy true trusts every hop; a count trusts that many hops from the socket', () => {
  const all = compileTrustProxy(true)!;
  assert.equal(all('203.0.113.9', 7), true);
  const two = compileTrustProxy(2)!;
  assert.deepEqual([0, 1, 2, 3].map((hop) => two('203.0.113.9', hop)), [true, true, false, false]);
});

test('trust_proxy lists: addresses, CIDRs, netmasks and the names loopback, linklocal, uniquelocal', () => {
  const named = compileTrustProxy(['loopback', 'linklocal', 'uniquelocal'])!;
  for (const yes of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '169.254.1.1', 'fe80::1', '10.1.2.3', '172.16.0.1', '192.168.1.1', 'fd00::1']) {
    assert.equal(named(yes, 0), true, yes);
  }
  for (const no of ['203.0.113.9', '2001:db8::1', '::ffff:203.0.113.9', '', 'unknown', '127.0.0.1:80']) assert.equal(named(no, 0), false, no);
  const cidrs = compileTrustProxy('10.0.0.0/8, 2001:db8::/32, 192.0.2.0/255.255.255.0')!;
  assert.equal(cidrs('10.200.0.1', 0), true);
  assert.equal(cidrs('::ffff:10.200.0.1', 0), true); // an IPv4-mapped address is its IPv4 address
  assert.equal(cidrs('2001:db8:1::5', 3), true);
  assert.equal(cidrs('192.0.2.77', 0), true);
  assert.equal(cidrs('11.0.0.1', 0), false);
  assert.equal(compileTrustProxy('203.0.113.5')!('203.0.113.5', 0), true);
});

test('a bad trust_proxy fails with HICKORY_ERR_CONFIG_TRUST_PROXY, naming the value and the fix', () => {
  const cases: Array<[unknown, RegExp]> = [
    [-1, /cannot be -1: a hop count is a whole number/],
    [1.5, /cannot be 1\.5/],
    [Number.NaN, /cannot be NaN/],
    ['nope', /cannot be "nope": invalid IP address: nope/],
    [['10.0.0.0/33'], /cannot be \["10\.0\.0\.0\/33"\]: invalid range/],
    [['loopback', 7], /cannot be \["loopback", 7\]: 7 is not an address/],
    ['', /cannot be ""/],
    [null, /cannot be null: it is neither/],
    [{ loopback: true }, /cannot be an object/],
    [['constructor'], /invalid IP address: constructor/],
    [['__proto__'], /invalid IP address: __proto__/],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => compileTrustProxy(value), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'HICKORY_ERR_CONFIG_TRUST_PROXY');
      assert.match(error.message, /^Configuration key "trust_proxy" cannot be /);
      assert.match(error.message, message);
      assert.match(error.message, /Use true \(trust every proxy\), a hop count .*loopback, linklocal, uniquelocal/);
      return true;
    });
  }
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'loopback'), false);
});

test('ready() checks trust_proxy before serving', async () => {
  const app = createKernel({ trust_proxy: ['loopback', '10.0.0.0/99'], logger: false });
  await assert.rejects(app.ready(), { code: 'HICKORY_ERR_CONFIG_TRUST_PROXY', message: /"10\.0\.0\.0\/99"/ });
  const good = createKernel({ trust_proxy: 'loopback', logger: false });
  await good.ready();
  assert.equal(good.config.trust_proxy, 'loopback');
  await good.close();
});
