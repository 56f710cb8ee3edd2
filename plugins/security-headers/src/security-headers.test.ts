import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { abort, createKernel, definePlugin, Response, type Kernel, type KernelConfig } from '@hickory/core';
import { securityHeadersPlugin, type SecurityHeadersOptions } from './index.ts';

// helmet 8.3.0's response headers with its defaults, over http (no HSTS), as helmet writes them.
const HELMET_DEFAULTS = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const NAMES = [...Object.keys(HELMET_DEFAULTS), 'strict-transport-security', 'cross-origin-embedder-policy', 'content-security-policy-report-only', 'x-powered-by'];

// /page → 200 with X-Powered-By set by the handler, /error → 403, /crash → 500, /own → its own
// CSP and frame options, /reply → a Response of its own; anything else → 404.
const pages = definePlugin({
  name: 'test-pages',
  apply(kernel) {
    kernel.hooks.route.tap('test-pages', (request) => {
      if (!['/page', '/error', '/crash', '/own', '/reply'].includes(request.path)) return undefined;
      return {
        target: request.path,
        handle: (req, res) => {
          if (req.path === '/error') abort(403);
          if (req.path === '/crash') throw new Error('boom');
          if (req.path === '/reply') return new Response({ body: 'made', headers: { 'X-Powered-By': 'PHP/5' } });
          if (req.path === '/own') {
            res.headers['Content-Security-Policy'] = "default-src 'none'";
            res.headers['X-Frame-Options'] = 'DENY';
          }
          res.headers['X-Powered-By'] = 'Express';
          return `<p>${req.path}</p>`;
        },
      };
    });
  },
});

async function app(options?: SecurityHeadersOptions, config: KernelConfig = {}): Promise<Kernel> {
  return createKernel({ logger: false, ...config }).use(pages).use(securityHeadersPlugin, options).ready();
}

function securityHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => NAMES.includes(name)));
}

test("helmet 8's defaults on every response (200, 403, 500, 404, a returned Response), X-Powered-By removed, no HSTS over http", async () => {
  const kernel = await app();
  for (const [url, status] of [['/page', 200], ['/error', 403], ['/crash', 500], ['/nowhere', 404], ['/reply', 200]] as const) {
    const res = await kernel.inject(url);
    assert.equal(res.statusCode, status, url);
    assert.deepEqual(securityHeaders(res.headers), HELMET_DEFAULTS, url);
  }
  await kernel.close();
});

test('Strict-Transport-Security only when request.scheme is https (here: behind a trusted proxy)', async () => {
  const kernel = await app(undefined, { trust_proxy: 'loopback' });
  const secure = await kernel.inject({ url: '/page', headers: { 'x-forwarded-proto': 'https' } });
  assert.equal(secure.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
  const plain = await kernel.inject({ url: '/page', headers: { 'x-forwarded-proto': 'http' } });
  assert.equal(plain.headers['strict-transport-security'], undefined);
  await kernel.close();
  const custom = await app({ strictTransportSecurity: { maxAge: 63072000.7, includeSubDomains: false, preload: true } }, { trust_proxy: 'loopback' });
  const res = await custom.inject({ url: '/page', headers: { 'x-forwarded-proto': 'https' } });
  assert.equal(res.headers['strict-transport-security'], 'max-age=63072000; preload');
  await custom.close();
});

test('a header the handler set itself is kept', async () => {
  const kernel = await app();
  const res = await kernel.inject('/own');
  assert.equal(res.headers['content-security-policy'], "default-src 'none'");
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  await kernel.close();
});

test('every header can be turned off (and X-Powered-By kept)', async () => {
  const kernel = await app({
    contentSecurityPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: false,
    xContentTypeOptions: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  }, { trust_proxy: 'loopback' });
  const res = await kernel.inject({ url: '/page', headers: { 'x-forwarded-proto': 'https' } });
  assert.deepEqual(securityHeaders(res.headers), { 'x-powered-by': 'Express' });
  await kernel.close();
});

test("every header's own options, as helmet takes them", async () => {
  const kernel = await app({
    crossOriginEmbedderPolicy: { policy: 'credentialless' },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: ['origin', 'strict-origin-when-cross-origin'] },
    xDnsPrefetchControl: { allow: true },
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: { permittedPolicies: 'by-content-type' },
  });
  const res = await kernel.inject('/page');
  assert.deepEqual(securityHeaders(res.headers), {
    ...HELMET_DEFAULTS,
    'cross-origin-embedder-policy': 'credentialless',
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'cross-origin-resource-policy': 'cross-origin',
    'referrer-policy': 'origin,strict-origin-when-cross-origin',
    'x-dns-prefetch-control': 'on',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'by-content-type',
  });
  await kernel.close();
  const coep = await app({ crossOriginEmbedderPolicy: true });
  assert.equal((await coep.inject('/page')).headers['cross-origin-embedder-policy'], 'require-corp');
  await coep.close();
});

test('CSP directives merge over the defaults (camelCase or dashed, null removes one), report-only, or without the defaults', async () => {
  const merged = await app({
    contentSecurityPolicy: { directives: { imgSrc: ["'self'", 'https://img.example.com'], 'connect-src': "'self'", upgradeInsecureRequests: null, scriptSrcAttr: null } },
  });
  assert.equal(
    (await merged.inject('/page')).headers['content-security-policy'],
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' https://img.example.com;object-src 'none';script-src 'self';style-src 'self' https: 'unsafe-inline';connect-src 'self'",
  );
  await merged.close();
  const reportOnly = await app({ contentSecurityPolicy: { useDefaults: false, reportOnly: true, directives: { defaultSrc: "'none'", reportUri: '/csp-reports' } } });
  const res = await reportOnly.inject('/page');
  assert.equal(res.headers['content-security-policy'], undefined);
  assert.equal(res.headers['content-security-policy-report-only'], "default-src 'none';report-uri /csp-reports");
  await reportOnly.close();
});

test('a CSP source made per request (a nonce) is checked like any header value', async () => {
  let n = 0;
  const kernel = await app({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", (request) => (request.path === '/crash' ? "'self'; img-src *" : `'nonce-${++n}'`)] } } });
  assert.equal((await kernel.inject('/page')).headers['content-security-policy'], "default-src 'self';script-src 'self' 'nonce-1'");
  assert.equal((await kernel.inject('/nowhere')).headers['content-security-policy'], "default-src 'self';script-src 'self' 'nonce-2'");
  // A function that would inject a directive makes the response a plain 500, without the policy.
  const broken = await kernel.inject('/crash');
  assert.equal(broken.statusCode, 500);
  assert.equal(broken.headers['content-security-policy'], undefined);
  await kernel.close();
});

test('over a real socket: the defaults on a page and a 404', async () => {
  const kernel = await app();
  const port = Number(new URL((await kernel.listen({ port: 0, host: '127.0.0.1' })).url).port);
  try {
    for (const [path, status] of [['/page', 200], ['/nowhere', 404]] as const) {
      const res = await get(port, path);
      assert.equal(res.status, status);
      assert.deepEqual(securityHeaders(res.headers), HELMET_DEFAULTS, path);
    }
  } finally {
    await kernel.close();
  }
});

function get(port: number, path: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}
