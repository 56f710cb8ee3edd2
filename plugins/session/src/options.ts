import { sessionError } from './errors.ts';
import { memoryStore } from './memory-store.ts';
import type { SessionStore } from './store.ts';

/**
 * The session cookie's attributes (options of `sessionPlugin`'s `cookie`).
 *
 * @example
 * ```ts
 * kernel.use(sessionPlugin, { secret, cookie: { name: '__Host-sid', secure: true, maxAge: 8 * 3600 } });
 * ```
 */
export interface SessionCookieOptions {
  /** The cookie's name. Default `sid`. */
  name?: string;
  /** Seconds a session lives without being used (rolling: each use moves it). Default 86 400 (a day). */
  maxAge?: number;
  /** Default `/`. */
  path?: string;
  /** Default: this host only. */
  domain?: string;
  /** Only over HTTPS. Default: when the request's scheme is `https` (behind a trusted proxy, the forwarded one). */
  secure?: boolean;
  /** `'lax'` (default), `'strict'` or `'none'` (which needs `secure: true`). */
  sameSite?: 'lax' | 'strict' | 'none';
  /** Hidden from page scripts. Default true. */
  httpOnly?: boolean;
}

/**
 * Options of `sessionPlugin`.
 *
 * @example
 * ```ts
 * kernel.use(sessionPlugin, { secret: [process.env.SESSION_SECRET!, process.env.OLD_SESSION_SECRET!], cookie: { maxAge: 3600 } });
 * ```
 */
export interface SessionOptions {
  /** The signing secret (32 characters or more), or a list: the first signs, all verify (key rotation). */
  secret: string | readonly string[];
  /** Where sessions live. Default `memoryStore()`. */
  store?: SessionStore;
  /** The session cookie. */
  cookie?: SessionCookieOptions;
}

/** The options checked, with their defaults. */
export interface SessionSettings {
  readonly secrets: readonly string[];
  readonly store: SessionStore;
  readonly name: string;
  readonly maxAge: number;
  readonly path: string;
  readonly domain: string | undefined;
  readonly secure: boolean | undefined;
  readonly sameSite: 'lax' | 'strict' | 'none';
  readonly httpOnly: boolean;
}

const OPTIONS = ['secret', 'store', 'cookie'];
const COOKIE_OPTIONS = ['name', 'maxAge', 'path', 'domain', 'secure', 'sameSite', 'httpOnly'];
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STORE_METHODS = ['get', 'set', 'touch', 'destroy', 'sweep'] as const;
const MIN_SECRET = 32;

/**
 * Checks `sessionPlugin`'s options (a coded error names the first bad one) and fills the defaults.
 *
 * @example
 * ```ts
 * checkOptions({ secret: 'x'.repeat(32) }).name; // 'sid'
 * ```
 */
export function checkOptions(options: SessionOptions | undefined): SessionSettings {
  if (options === undefined || typeof options !== 'object') throw sessionError('HICKORY_ERR_SESSION_SECRET', 'no options');
  for (const key of Object.keys(options)) if (!OPTIONS.includes(key)) throw sessionError('HICKORY_ERR_SESSION_OPTION', key, `is unknown (known: ${OPTIONS.join(', ')})`);
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (!Array.isArray(secrets) || secrets.length === 0 || !secrets.every((s) => typeof s === 'string' && s.length >= MIN_SECRET)) {
    throw sessionError('HICKORY_ERR_SESSION_SECRET', describeSecret(options.secret));
  }
  const store = options.store ?? memoryStore();
  for (const method of STORE_METHODS) {
    if (typeof store[method] !== 'function') throw sessionError('HICKORY_ERR_SESSION_OPTION', 'store', `has no ${method}() method: give memoryStore(), sqlStore(db) or an object with get, set, touch, destroy and sweep`);
  }
  const cookie = options.cookie ?? {};
  for (const key of Object.keys(cookie)) if (!COOKIE_OPTIONS.includes(key)) throw sessionError('HICKORY_ERR_SESSION_OPTION', `cookie.${key}`, `is unknown (known: ${COOKIE_OPTIONS.join(', ')})`);
  const { name = 'sid', maxAge = 86_400, path = '/', domain, secure, sameSite = 'lax', httpOnly = true } = cookie;
  if (typeof name !== 'string' || !TOKEN.test(name)) throw sessionError('HICKORY_ERR_SESSION_OPTION', 'cookie.name', 'must be a cookie name (letters, digits and !#$%&\'*+-.^_`|~)');
  if (!Number.isSafeInteger(maxAge) || maxAge < 1) throw sessionError('HICKORY_ERR_SESSION_OPTION', 'cookie.maxAge', 'must be a whole number of seconds, 1 or more');
  if (typeof path !== 'string' || !path.startsWith('/')) throw sessionError('HICKORY_ERR_SESSION_OPTION', 'cookie.path', 'must be a path starting with /');
  if (domain !== undefined && (typeof domain !== 'string' || domain.length === 0)) throw sessionError('HICKORY_ERR_SESSION_OPTION', 'cookie.domain', 'must be a domain name');
  for (const [key, value] of [['secure', secure], ['httpOnly', httpOnly]] as const) {
    if (value !== undefined && typeof value !== 'boolean') throw sessionError('HICKORY_ERR_SESSION_OPTION', `cookie.${key}`, 'must be true or false');
  }
  if (!['lax', 'strict', 'none'].includes(sameSite)) throw sessionError('HICKORY_ERR_SESSION_OPTION', 'cookie.sameSite', "must be 'lax', 'strict' or 'none'");
  if (sameSite === 'none' && secure !== true) throw sessionError('HICKORY_ERR_SESSION_OPTION', 'cookie.sameSite', "'none' needs secure: true (browsers refuse it otherwise)");
  return { secrets: [...secrets], store, name, maxAge, path, domain, secure, sameSite, httpOnly };
}

function describeSecret(secret: unknown): string {
  if (typeof secret === 'string') return `a string of ${secret.length} characters`;
  if (Array.isArray(secret)) return `a list of ${secret.length} (${secret.map((s) => (typeof s === 'string' ? `${s.length} characters` : typeof s)).join(', ')})`;
  return secret === undefined ? 'nothing' : typeof secret;
}
