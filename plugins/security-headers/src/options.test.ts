import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { securityHeadersPlugin, SECURITY_HEADERS_ERRORS, type SecurityHeadersOptions } from './index.ts';

// A plugin's options are checked as it is applied: a mistake fails ready(), naming the option.
async function use(options: unknown): Promise<void> {
  const kernel = createKernel({ logger: false }).use(securityHeadersPlugin, options as SecurityHeadersOptions);
  try {
    await kernel.ready();
  } finally {
    await kernel.close();
  }
}

test('bad options fail at ready() with a coded error naming the option and the fix', async () => {
  const option = 'HICKORY_ERR_SECURITY_HEADERS_OPTION';
  const csp = 'HICKORY_ERR_SECURITY_HEADERS_CSP';
  const cases: Array<[unknown, string, RegExp]> = [
    [{ hsts: false }, option, /"hsts" is helmet's older name of "strictTransportSecurity"/],
    [{ frameguard: { action: 'deny' } }, option, /write xFrameOptions/],
    [{ contentSecurityPolicies: false }, option, /"contentSecurityPolicies" is unknown \(known: contentSecurityPolicy,/],
    [{ xContentTypeOptions: 'yes' }, option, /"xContentTypeOptions" must be true or false/],
    [{ xFrameOptions: { action: 'allow-from' } }, option, /"xFrameOptions" has action "allow-from": one of sameorigin, deny/],
    [{ xFrameOptions: 'deny' }, option, /"xFrameOptions" must be true, false or \{ action \}/],
    [{ crossOriginResourcePolicy: { polcy: 'cross-origin' } }, option, /has "polcy", which it does not take \(it takes policy\)/],
    [{ referrerPolicy: { policy: ['origin', 'origin'] } }, option, /"referrerPolicy" has policy/],
    [{ referrerPolicy: { policy: 'everywhere' } }, option, /"referrerPolicy" has policy "everywhere"/],
    [{ strictTransportSecurity: { maxAge: -1 } }, option, /maxAge that is not a number of seconds/],
    [{ strictTransportSecurity: { maxage: 10 } }, option, /has "maxage", which it does not take/],
    [{ contentSecurityPolicy: { directives: { scriptSrc: ['self'] } } }, csp, /"script-src" has "self", which must be quoted: "'self'"/],
    [{ contentSecurityPolicy: { directives: { imgSrc: "'self'; script-src *" } } }, csp, /not one source/],
    [{ contentSecurityPolicy: { directives: { defaultSrc: null } } }, csp, /it has no default-src/],
    [{ contentSecurityPolicy: { useDefaults: false, directives: { imgSrc: "'self'" } } }, csp, /it has no default-src/],
    [{ contentSecurityPolicy: { directives: { scriptSrc: "'self'", 'script-src': "'none'" } } }, csp, /"script-src" is given twice/],
    [{ contentSecurityPolicy: { directives: { 'script src': "'self'" } } }, csp, /"script src" is not a directive name/],
    [{ contentSecurityPolicy: { directives: { imgSrc: [42] } } }, csp, /holds number/],
    [{ contentSecurityPolicy: { directive: {} } }, csp, /"directive" is unknown/],
  ];
  for (const [options, code, message] of cases) {
    await assert.rejects(() => use(options), (error: Error & { code?: string }) => {
      assert.equal(error.code, code, JSON.stringify(options));
      assert.match(error.message, message);
      return true;
    });
  }
});

test('the error table has its two codes', async () => {
  assert.deepEqual(Object.keys(SECURITY_HEADERS_ERRORS), ['HICKORY_ERR_SECURITY_HEADERS_OPTION', 'HICKORY_ERR_SECURITY_HEADERS_CSP']);
});
