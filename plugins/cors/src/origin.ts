import type { Request } from '@hickory/core';
import { isThenable } from '@hickory/core/kit';
import { corsError } from './errors.ts';

/**
 * Who may call: `'*'` (anyone, without credentials), one origin, a list of origins (strings or
 * RegExps), a RegExp tested against the request's `Origin`, or a function deciding per request
 * (it may be async; it is asked only for a request that sends `Origin`).
 *
 * @example
 * ```ts
 * const origin: CorsOrigin = ['https://app.example.com', /^https:\/\/[a-z0-9-]+\.example\.com$/];
 * ```
 */
export type CorsOrigin = '*' | string | ReadonlyArray<string | RegExp> | RegExp | ((origin: string, request: Request) => boolean | Promise<boolean>);

/**
 * The `origin` option, compiled once.
 *
 * @example
 * ```ts
 * const check: OriginCheck = compileOrigin('https://app.example.com'); // check.wildcard === false
 * ```
 */
export interface OriginCheck {
  /** `'*'`: any origin, answered with a literal `*`, so the answer does not depend on `Origin`. */
  readonly wildcard: boolean;
  /** Whether `origin` may call: at once, or a promise when an async function decides. */
  allows(origin: string, request: Request): boolean | Promise<boolean>;
}

const WILDCARD: OriginCheck = { wildcard: true, allows: () => true };

// What a browser sends in `Origin`: a serialized origin, or `null` (sandboxed frames, file: pages,
// some redirects). Anything else (text that is not one) is never allowed, and is never reflected
// into a response header, whatever a RegExp or a function would say of it.
const ORIGIN_SYNTAX = /^(?:null|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[A-Za-z0-9.\-_~%!$&'()*+,;=:[\]]+)$/;

/**
 * True when `value` is written as a browser writes an `Origin` header.
 *
 * @example
 * ```ts
 * isOriginSyntax('https://app.example.com:8443'); // true
 * isOriginSyntax('https://app.example.com/'); // false
 * ```
 */
export function isOriginSyntax(value: string): boolean {
  return ORIGIN_SYNTAX.test(value);
}

/**
 * Compiles the `origin` option (a coded error for a value that could never match a browser's
 * `Origin`, such as a trailing slash or an upper-case host).
 *
 * @example
 * ```ts
 * compileOrigin(['https://a.example', /\.example\.org$/]).allows('https://a.example', request); // true
 * ```
 */
export function compileOrigin(option: CorsOrigin | undefined): OriginCheck {
  if (option === '*') return WILDCARD;
  if (typeof option === 'function') return { wildcard: false, allows: (origin, request) => decided(option(origin, request)) };
  if (typeof option === 'string' || option instanceof RegExp) return listCheck([option]);
  if (Array.isArray(option)) {
    if (option.length === 0) throw corsError('HICKORY_ERR_CORS_OPTION', 'origin', 'is an empty list: no origin could ever call; list at least one');
    return listCheck(option as ReadonlyArray<string | RegExp>);
  }
  throw corsError(
    'HICKORY_ERR_CORS_OPTION',
    'origin',
    `must be '*', an origin ("https://app.example.com"), a list of origins and RegExps, a RegExp or a function (origin, request) => boolean; got ${option === undefined ? 'nothing' : typeof option}`,
  );
}

function listCheck(items: ReadonlyArray<string | RegExp>): OriginCheck {
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const item of items) {
    if (item instanceof RegExp) patterns.push(stateless(item));
    else if (typeof item === 'string') exact.add(checkedOrigin(item));
    else throw corsError('HICKORY_ERR_CORS_OPTION', 'origin', `lists ${typeof item}: a list holds origins (strings) and RegExps`);
  }
  return {
    wildcard: false,
    allows: (origin) => exact.has(origin) || patterns.some((pattern) => pattern.test(origin)),
  };
}

// An origin as the browser sends it: `new URL()` serializes it the same way (lower-case scheme
// and host, no default port, no path), so any difference is a value that could never match.
function checkedOrigin(value: string): string {
  if (value === '*') throw corsError('HICKORY_ERR_CORS_OPTION', 'origin', "holds '*' in a list: give origin: '*' alone to allow every origin");
  let serialized: string | undefined;
  try {
    serialized = new URL(value).origin;
  } catch {
    serialized = undefined;
  }
  if (serialized === value && isOriginSyntax(value)) return value;
  throw corsError('HICKORY_ERR_CORS_ORIGIN', value, serialized === undefined || serialized === 'null' ? 'https://app.example.com' : serialized);
}

// A RegExp with the `g` or `y` flag remembers `lastIndex` between `test()` calls, so the same
// origin would be allowed on one request and refused on the next.
function stateless(pattern: RegExp): RegExp {
  return pattern.global || pattern.sticky ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) : pattern;
}

// Only `true` allows: a function that returns a string or a number by mistake refuses, rather
// than reflecting the origin of every caller.
function decided(answer: boolean | Promise<boolean>): boolean | Promise<boolean> {
  if (isThenable(answer)) return Promise.resolve(answer).then((value) => value === true);
  return answer === true;
}
