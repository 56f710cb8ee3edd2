import { csrfError } from './errors.ts';

/**
 * Options of `csrfPlugin`.
 *
 * @example
 * ```ts
 * kernel.use(csrfPlugin, { trustedOrigins: ['https://sso.example.com'] });
 * ```
 */
export interface CsrfOptions {
  /**
   * Origins (`scheme://host[:port]`) whose requests are allowed although they come from another
   * site: an SSO provider posting back, a partner's form. Compared with the `Origin` header exactly.
   */
  trustedOrigins?: readonly string[];
}

/**
 * Checks the options (a coded error names the first bad one) and gives the trusted origins as a set.
 *
 * @example
 * ```ts
 * trustedOriginsOf({ trustedOrigins: ['https://sso.example.com'] }).has('https://sso.example.com'); // true
 * ```
 */
export function trustedOriginsOf(options: CsrfOptions | undefined): ReadonlySet<string> {
  const given = options ?? {};
  if (typeof given !== 'object' || given === null) throw csrfError('HICKORY_ERR_CSRF_OPTION', 'options', 'must be an object such as { trustedOrigins: [...] }');
  for (const key of Object.keys(given)) if (key !== 'trustedOrigins') throw csrfError('HICKORY_ERR_CSRF_OPTION', key, 'is unknown (known: trustedOrigins)');
  const origins = given.trustedOrigins ?? [];
  if (!Array.isArray(origins)) throw csrfError('HICKORY_ERR_CSRF_OPTION', 'trustedOrigins', 'must be a list of origins such as ["https://sso.example.com"]');
  for (const origin of origins as unknown[]) {
    const problem = originProblem(origin);
    if (problem !== undefined) throw csrfError('HICKORY_ERR_CSRF_TRUSTED_ORIGIN', JSON.stringify(origin), problem);
  }
  return new Set(origins);
}

function originProblem(origin: unknown): string | undefined {
  if (typeof origin !== 'string') return `a ${typeof origin}, not a string`;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'it does not parse as a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `its scheme ${url.protocol} is not http or https`;
  return url.origin === origin ? undefined : `browsers would send ${JSON.stringify(url.origin)}`;
}
