import { staticError } from './errors.ts';

/**
 * Options of `staticPlugin`.
 *
 * @example
 * ```ts
 * kernel.use(staticPlugin, { maxAge: '1d', immutable: true });
 * kernel.use(staticPlugin, { cacheControl: 'no-cache' });
 * ```
 */
export interface StaticOptions {
  /** `max-age` of the default `Cache-Control` (milliseconds, or a string such as `'1d'`). Default 0. */
  maxAge?: number | string;
  /** Adds `immutable` to the default `Cache-Control`. Default false. */
  immutable?: boolean;
  /** An exact `Cache-Control` value, or `false` to send none. Default: `public, max-age=<maxAge>`. */
  cacheControl?: string | false;
  /** Send an `ETag`. Default true. */
  etag?: boolean;
  /** Send `Last-Modified`. Default true. */
  lastModified?: boolean;
  /** Throw at `ready()` when `static_root` is not configured (otherwise the plugin does nothing). Default false. */
  required?: boolean;
}

const KNOWN = ['maxAge', 'immutable', 'cacheControl', 'etag', 'lastModified', 'required'];
const UNSAFE = /[\r\n\0]/;

/**
 * Checks the options (a coded error names the first bad one).
 *
 * @example
 * ```ts
 * checkOptions({ maxAge: '1h' }); // ok
 * ```
 */
export function checkOptions(options: StaticOptions | undefined): StaticOptions {
  const given = options ?? {};
  for (const key of Object.keys(given)) {
    if (!KNOWN.includes(key)) throw staticError('HICKORY_ERR_STATIC_OPTION', key, `is unknown (known: ${KNOWN.join(', ')})`);
  }
  const { maxAge, cacheControl } = given;
  if (maxAge !== undefined && !(typeof maxAge === 'string' ? maxAge.length > 0 : Number.isFinite(maxAge) && maxAge >= 0)) {
    throw staticError('HICKORY_ERR_STATIC_OPTION', 'maxAge', 'must be milliseconds (0 or more) or a duration such as "1d"');
  }
  if (cacheControl !== undefined && cacheControl !== false && (typeof cacheControl !== 'string' || cacheControl.length === 0 || UNSAFE.test(cacheControl))) {
    throw staticError('HICKORY_ERR_STATIC_OPTION', 'cacheControl', 'must be a header value such as "no-cache", or false');
  }
  for (const key of ['immutable', 'etag', 'lastModified', 'required'] as const) {
    if (given[key] !== undefined && typeof given[key] !== 'boolean') throw staticError('HICKORY_ERR_STATIC_OPTION', key, 'must be true or false');
  }
  return given;
}
