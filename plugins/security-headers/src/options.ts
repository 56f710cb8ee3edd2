import { compileCsp, type ContentSecurityPolicyOptions, type CspHeader } from './csp.ts';
import { securityHeadersError } from './errors.ts';

/** A `Referrer-Policy` token. */
type ReferrerPolicyToken =
  | 'no-referrer'
  | 'no-referrer-when-downgrade'
  | 'same-origin'
  | 'origin'
  | 'strict-origin'
  | 'origin-when-cross-origin'
  | 'strict-origin-when-cross-origin'
  | 'unsafe-url'
  | '';

/**
 * Options of `securityHeadersPlugin`: helmet 8's names and defaults. Each header is `true` (its
 * default value), `false` (not sent) or its own options.
 *
 * @example
 * ```ts
 * kernel.use(securityHeadersPlugin, {
 *   contentSecurityPolicy: { directives: { imgSrc: ["'self'", 'data:', 'https://img.example.com'] } },
 *   strictTransportSecurity: { maxAge: 63072000, preload: true },
 *   xFrameOptions: { action: 'deny' },
 * });
 * ```
 */
export interface SecurityHeadersOptions {
  /** `Content-Security-Policy`: helmet's default directives, merged with yours. */
  contentSecurityPolicy?: boolean | ContentSecurityPolicyOptions;
  /** `Cross-Origin-Embedder-Policy`: off by default (as in helmet 8); `true` is `require-corp`. */
  crossOriginEmbedderPolicy?: boolean | { policy?: 'require-corp' | 'credentialless' | 'unsafe-none' };
  /** `Cross-Origin-Opener-Policy`, default `same-origin`. */
  crossOriginOpenerPolicy?: boolean | { policy?: 'same-origin' | 'same-origin-allow-popups' | 'noopener-allow-popups' | 'unsafe-none' };
  /** `Cross-Origin-Resource-Policy`, default `same-origin` (`cross-origin` for assets other sites embed). */
  crossOriginResourcePolicy?: boolean | { policy?: 'same-origin' | 'same-site' | 'cross-origin' };
  /** `Origin-Agent-Cluster: ?1`. */
  originAgentCluster?: boolean;
  /** `Referrer-Policy`, default `no-referrer`. */
  referrerPolicy?: boolean | { policy?: ReferrerPolicyToken | readonly ReferrerPolicyToken[] };
  /** `Strict-Transport-Security`, sent only when `request.scheme` is `https`: default `max-age=31536000; includeSubDomains`. */
  strictTransportSecurity?: boolean | { maxAge?: number; includeSubDomains?: boolean; preload?: boolean };
  /** `X-Content-Type-Options: nosniff`. */
  xContentTypeOptions?: boolean;
  /** `X-DNS-Prefetch-Control`, default `off`. */
  xDnsPrefetchControl?: boolean | { allow?: boolean };
  /** `X-Download-Options: noopen`. */
  xDownloadOptions?: boolean;
  /** `X-Frame-Options`, default `SAMEORIGIN`. */
  xFrameOptions?: boolean | { action?: 'deny' | 'sameorigin' };
  /** `X-Permitted-Cross-Domain-Policies`, default `none`. */
  xPermittedCrossDomainPolicies?: boolean | { permittedPolicies?: 'none' | 'master-only' | 'by-content-type' | 'all' };
  /** Removes `X-Powered-By` (default true). */
  xPoweredBy?: boolean;
  /** `X-XSS-Protection: 0` (the old filter caused more harm than good: turned off). */
  xXssProtection?: boolean;
}

/** One header with a fixed value: lower-cased key, name, value. */
interface FixedHeader {
  readonly key: string;
  readonly name: string;
  readonly value: string;
}

/**
 * The options as the plugin uses them: every value made once.
 *
 * @example
 * ```ts
 * const table: HeaderTable = headerTable({ strictTransportSecurity: false }); // table.hsts === undefined
 * ```
 */
export interface HeaderTable {
  /** Sent on every response. */
  readonly always: readonly FixedHeader[];
  /** Sent over https only. */
  readonly hsts: FixedHeader | undefined;
  readonly csp: CspHeader | undefined;
  readonly removePoweredBy: boolean;
}

// helmet's older names, still accepted by helmet 8: pointed to rather than taken, so that one
// header has one name in a Hickory app.
const ALIASES: Readonly<Record<string, string>> = {
  hsts: 'strictTransportSecurity',
  noSniff: 'xContentTypeOptions',
  dnsPrefetchControl: 'xDnsPrefetchControl',
  ieNoOpen: 'xDownloadOptions',
  frameguard: 'xFrameOptions',
  permittedCrossDomainPolicies: 'xPermittedCrossDomainPolicies',
  hidePoweredBy: 'xPoweredBy',
  xssFilter: 'xXssProtection',
};

const KNOWN = [
  'contentSecurityPolicy', 'crossOriginEmbedderPolicy', 'crossOriginOpenerPolicy', 'crossOriginResourcePolicy', 'originAgentCluster', 'referrerPolicy',
  'strictTransportSecurity', 'xContentTypeOptions', 'xDnsPrefetchControl', 'xDownloadOptions', 'xFrameOptions', 'xPermittedCrossDomainPolicies', 'xPoweredBy', 'xXssProtection',
];

const DEFAULT_HSTS_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * Checks the options and builds the header table (a coded error names the first bad option).
 *
 * @example
 * ```ts
 * headerTable({ xFrameOptions: { action: 'deny' } }).always.find((h) => h.key === 'x-frame-options')?.value; // 'DENY'
 * ```
 */
export function headerTable(options: SecurityHeadersOptions | undefined): HeaderTable {
  const given = options ?? {};
  if (typeof given !== 'object') throw optionError('(options)', 'must be an object of header options');
  for (const key of Object.keys(given)) {
    if (ALIASES[key] !== undefined) throw optionError(key, `is helmet's older name of "${ALIASES[key]}": write ${ALIASES[key]}`);
    if (!KNOWN.includes(key)) throw optionError(key, `is unknown (known: ${KNOWN.join(', ')})`);
  }
  const always: FixedHeader[] = [];
  const add = (name: string, value: string | undefined): void => {
    if (value !== undefined) always.push({ key: name.toLowerCase(), name, value });
  };
  add('Cross-Origin-Embedder-Policy', choice(given, 'crossOriginEmbedderPolicy', 'policy', ['require-corp', 'credentialless', 'unsafe-none'], false));
  add('Cross-Origin-Opener-Policy', choice(given, 'crossOriginOpenerPolicy', 'policy', ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none']));
  add('Cross-Origin-Resource-Policy', choice(given, 'crossOriginResourcePolicy', 'policy', ['same-origin', 'same-site', 'cross-origin']));
  add('Origin-Agent-Cluster', flag(given, 'originAgentCluster') ? '?1' : undefined);
  add('Referrer-Policy', referrerPolicy(given.referrerPolicy));
  add('X-Content-Type-Options', flag(given, 'xContentTypeOptions') ? 'nosniff' : undefined);
  add('X-DNS-Prefetch-Control', dnsPrefetch(given.xDnsPrefetchControl));
  add('X-Download-Options', flag(given, 'xDownloadOptions') ? 'noopen' : undefined);
  add('X-Frame-Options', choice(given, 'xFrameOptions', 'action', ['sameorigin', 'deny'])?.toUpperCase());
  add('X-Permitted-Cross-Domain-Policies', choice(given, 'xPermittedCrossDomainPolicies', 'permittedPolicies', ['none', 'master-only', 'by-content-type', 'all']));
  add('X-XSS-Protection', flag(given, 'xXssProtection') ? '0' : undefined);
  const hsts = strictTransportSecurity(given.strictTransportSecurity);
  return {
    always,
    hsts: hsts === undefined ? undefined : { key: 'strict-transport-security', name: 'Strict-Transport-Security', value: hsts },
    csp: compileCsp(given.contentSecurityPolicy),
    removePoweredBy: flag(given, 'xPoweredBy'),
  };
}

type Settable = { [K in keyof SecurityHeadersOptions]?: unknown };

// A header that is on or off only.
function flag(given: Settable, key: keyof SecurityHeadersOptions): boolean {
  const value = given[key];
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw optionError(key, 'must be true or false');
  return value;
}

// A header whose one option picks a value from a list (the first is the default).
function choice(given: Settable, key: keyof SecurityHeadersOptions, field: string, allowed: readonly string[], byDefault = true): string | undefined {
  const value = given[key];
  if (value === false || (value === undefined && !byDefault)) return undefined;
  if (value === undefined || value === true) return allowed[0];
  const picked = fieldsOf(key, value, [field])[field] ?? allowed[0];
  const normalized = typeof picked === 'string' ? picked.toLowerCase() : picked;
  if (typeof normalized !== 'string' || !allowed.includes(normalized)) throw optionError(key, `has ${field} ${JSON.stringify(picked)}: one of ${allowed.join(', ')}`);
  return normalized;
}

function referrerPolicy(value: SecurityHeadersOptions['referrerPolicy']): string | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return 'no-referrer';
  const { policy = 'no-referrer' } = fieldsOf('referrerPolicy', value, ['policy']) as { policy?: unknown };
  const tokens: unknown[] = Array.isArray(policy) ? policy : [policy];
  const allowed = ['no-referrer', 'no-referrer-when-downgrade', 'same-origin', 'origin', 'strict-origin', 'origin-when-cross-origin', 'strict-origin-when-cross-origin', 'unsafe-url', ''];
  if (tokens.length === 0 || tokens.some((token) => typeof token !== 'string' || !allowed.includes(token)) || new Set(tokens).size !== tokens.length) {
    throw optionError('referrerPolicy', `has policy ${JSON.stringify(policy)}: one or more (no repeats) of ${allowed.filter(Boolean).join(', ')}`);
  }
  return tokens.join(',');
}

function dnsPrefetch(value: SecurityHeadersOptions['xDnsPrefetchControl']): string | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return 'off';
  const { allow = false } = fieldsOf('xDnsPrefetchControl', value, ['allow']) as { allow?: unknown };
  if (typeof allow !== 'boolean') throw optionError('xDnsPrefetchControl', 'has allow that is not true or false');
  return allow ? 'on' : 'off';
}

function strictTransportSecurity(value: SecurityHeadersOptions['strictTransportSecurity']): string | undefined {
  if (value === false) return undefined;
  const given = value === undefined || value === true ? {} : (fieldsOf('strictTransportSecurity', value, ['maxAge', 'includeSubDomains', 'preload']) as Record<string, unknown>);
  const { maxAge = DEFAULT_HSTS_MAX_AGE, includeSubDomains = true, preload = false } = given;
  if (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge < 0) throw optionError('strictTransportSecurity', 'has a maxAge that is not a number of seconds (0 or more)');
  if (typeof includeSubDomains !== 'boolean' || typeof preload !== 'boolean') throw optionError('strictTransportSecurity', 'has includeSubDomains or preload that is not true or false');
  return [`max-age=${Math.floor(maxAge)}`, ...(includeSubDomains ? ['includeSubDomains'] : []), ...(preload ? ['preload'] : [])].join('; ');
}

// A header's own options: an object with only the fields it knows.
function fieldsOf(key: string, value: unknown, fields: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw optionError(key, `must be true, false or { ${fields.join(', ')} }`);
  for (const field of Object.keys(value)) {
    if (!fields.includes(field)) throw optionError(key, `has "${field}", which it does not take (it takes ${fields.join(', ')})`);
  }
  return value as Record<string, unknown>;
}

function optionError(key: string, problem: string): Error {
  return securityHeadersError('HICKORY_ERR_SECURITY_HEADERS_OPTION', key, problem);
}
