import type { Request, Response } from '@hickory/core';
import { assertHeaderValue } from '@hickory/core/kit';
import { securityHeadersError } from './errors.ts';

/**
 * One source of a CSP directive: text, or a function of the request giving it (a per-request
 * nonce, `'nonce-…'`).
 *
 * @example
 * ```ts
 * const nonce: CspSource = (request) => `'nonce-${String(request.context.nonce)}'`;
 * ```
 */
export type CspSource = string | ((request: Request, response: Response) => string);

/**
 * A directive's value: one string, a list of sources (`[]` for a directive without value, such
 * as `upgrade-insecure-requests`), or `null` to remove one of the defaults.
 *
 * @example
 * ```ts
 * const scriptSrc: CspDirectiveValue = ["'self'", 'https://cdn.example.com'];
 * ```
 */
export type CspDirectiveValue = string | readonly CspSource[] | null;

/**
 * The `contentSecurityPolicy` option (helmet's): the directives are merged over the defaults,
 * named in camelCase (`scriptSrc`) or as in the header (`'script-src'`).
 *
 * @example
 * ```ts
 * const csp: ContentSecurityPolicyOptions = { directives: { imgSrc: ["'self'", 'data:', 'https://img.example.com'], upgradeInsecureRequests: null } };
 * ```
 */
export interface ContentSecurityPolicyOptions {
  /** Start from helmet's default directives (default true). */
  useDefaults?: boolean;
  /** Directives to add or replace (`null` removes a default one). */
  directives?: Readonly<Record<string, CspDirectiveValue>>;
  /** Send `Content-Security-Policy-Report-Only` instead (the browser reports and blocks nothing). */
  reportOnly?: boolean;
}

/**
 * The header to send: its value, fixed or made per request.
 *
 * @example
 * ```ts
 * const header: CspHeader | undefined = compileCsp({ reportOnly: true }); // header?.name === 'Content-Security-Policy-Report-Only'
 * ```
 */
export interface CspHeader {
  readonly key: string;
  readonly name: string;
  readonly value: string | ((request: Request, response: Response) => string);
}

// helmet 8.3.0's defaults (`contentSecurityPolicy.getDefaultDirectives()`), in its order.
const DEFAULT_DIRECTIVES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['default-src', ["'self'"]],
  ['base-uri', ["'self'"]],
  ['font-src', ["'self'", 'https:', 'data:']],
  ['form-action', ["'self'"]],
  ['frame-ancestors', ["'self'"]],
  ['img-src', ["'self'", 'data:']],
  ['object-src', ["'none'"]],
  ['script-src', ["'self'"]],
  ['script-src-attr', ["'none'"]],
  ['style-src', ["'self'", 'https:', "'unsafe-inline'"]],
  ['upgrade-insecure-requests', []],
];

// Keywords that mean something only in quotes: unquoted, `self` is a host named "self".
const MUST_BE_QUOTED = new Set(['none', 'self', 'strict-dynamic', 'report-sample', 'inline-speculation-rules', 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes', 'wasm-unsafe-eval']);
const DIRECTIVE_NAME = /^[a-z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/;

/**
 * Compiles the option into the header (`undefined` when turned off), checking every directive
 * (a coded error names the first bad one). Without functions the value is one string, made once.
 *
 * @example
 * ```ts
 * compileCsp(undefined)?.value; // "default-src 'self';base-uri 'self';…;upgrade-insecure-requests"
 * ```
 */
export function compileCsp(option: boolean | ContentSecurityPolicyOptions | undefined): CspHeader | undefined {
  if (option === false) return undefined;
  const given = option === undefined || option === true ? {} : option;
  if (typeof given !== 'object' || given === null) throw securityHeadersError('HICKORY_ERR_SECURITY_HEADERS_OPTION', 'contentSecurityPolicy', 'must be true, false or { directives, useDefaults, reportOnly }');
  for (const key of Object.keys(given)) {
    if (!['useDefaults', 'directives', 'reportOnly'].includes(key)) throw cspError(`"${key}" is unknown (known: useDefaults, directives, reportOnly)`);
  }
  const directives = new Map<string, readonly CspSource[]>(given.useDefaults === false ? [] : DEFAULT_DIRECTIVES);
  const seen = new Set<string>();
  for (const [rawName, value] of Object.entries(given.directives ?? {})) {
    const name = directiveName(rawName);
    if (seen.has(name)) throw cspError(`the directive "${name}" is given twice`);
    seen.add(name);
    if (value === null) {
      directives.delete(name);
      continue;
    }
    const sources = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(sources)) throw cspError(`the directive "${name}" must be a string, a list of sources or null`);
    for (const source of sources) {
      if (typeof source === 'string') checkSource(name, source);
      else if (typeof source !== 'function') throw cspError(`the directive "${name}" holds ${typeof source}: sources are strings or functions of the request`);
    }
    directives.set(name, sources);
  }
  if (!directives.has('default-src')) {
    throw cspError("it has no default-src, so whatever no directive names may load from anywhere: set one (default-src: [\"'self'\"]), or turn the header off with contentSecurityPolicy: false");
  }
  const [key, name] = given.reportOnly === true ? ['content-security-policy-report-only', 'Content-Security-Policy-Report-Only'] : ['content-security-policy', 'Content-Security-Policy'];
  const entries = [...directives];
  if (entries.every(([, sources]) => sources.every((source) => typeof source === 'string'))) {
    const value = entries.map(([directive, sources]) => serialize(directive, sources as readonly string[])).join(';');
    assertHeaderValue(name, value);
    return { key, name, value };
  }
  return { key, name, value: (request, response) => entries.map(([directive, sources]) => serialize(directive, sources.map((source) => sourceFor(directive, source, request, response)))).join(';') };
}

function directiveName(raw: string): string {
  if (!DIRECTIVE_NAME.test(raw)) throw cspError(`"${raw}" is not a directive name (scriptSrc or 'script-src')`);
  return raw.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function serialize(directive: string, sources: readonly string[]): string {
  return sources.length === 0 ? directive : `${directive} ${sources.join(' ')}`;
}

// A `;` or `,` would end the directive (or the policy) early and start one the app never wrote;
// anything but printable ASCII would break the header.
function checkSource(directive: string, source: string): void {
  if (/[;,]/.test(source) || /[^\x21-\x7e]/.test(source) || source === '') throw cspError(`the directive "${directive}" has the source ${JSON.stringify(source)}, which is not one source (no spaces, ";" or ",")`);
  if (MUST_BE_QUOTED.has(source) || /^(?:nonce|sha256|sha384|sha512)-/.test(source)) {
    throw cspError(`the directive "${directive}" has ${JSON.stringify(source)}, which must be quoted: "'${source}'"`);
  }
}

function sourceFor(directive: string, source: CspSource, request: Request, response: Response): string {
  if (typeof source === 'string') return source;
  const made = source(request, response);
  if (typeof made !== 'string') throw cspError(`a function of the directive "${directive}" returned ${typeof made}, not a source`);
  checkSource(directive, made);
  return made;
}

function cspError(message: string): Error {
  return securityHeadersError('HICKORY_ERR_SECURITY_HEADERS_CSP', message);
}
