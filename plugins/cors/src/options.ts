import { corsError } from './errors.ts';
import { compileOrigin, type CorsOrigin, type OriginCheck } from './origin.ts';

/**
 * Options of `corsPlugin` (the semantics of the `cors` npm package, with its defaults).
 *
 * @example
 * ```ts
 * kernel.use(corsPlugin, { origin: 'https://app.example.com', credentials: true, exposedHeaders: ['X-Total-Count'], maxAge: 600 });
 * ```
 */
export interface CorsOptions {
  /** The allowed origins (required: there is no silent default). */
  origin: CorsOrigin;
  /** `Access-Control-Allow-Methods` of a preflight. Default `GET,HEAD,PUT,PATCH,POST,DELETE`. */
  methods?: string | readonly string[];
  /**
   * `Access-Control-Allow-Headers` of a preflight. Default: the request's own
   * `Access-Control-Request-Headers`, reflected (and `Vary: Access-Control-Request-Headers`).
   */
  allowedHeaders?: string | readonly string[];
  /** `Access-Control-Expose-Headers`: the response headers a page's script may read. Default none. */
  exposedHeaders?: string | readonly string[];
  /** `Access-Control-Allow-Credentials: true` (cookies, HTTP auth). Default false; never with origin `'*'`. */
  credentials?: boolean;
  /** `Access-Control-Max-Age` of a preflight, in seconds. Default: not sent (browsers keep it 5 s). */
  maxAge?: number;
}

/**
 * The options as the plugin uses them: checked, header values joined once.
 *
 * @example
 * ```ts
 * const settings: CorsSettings = corsSettings({ origin: '*', methods: ['GET', 'POST'] }); // settings.methods === 'GET,POST'
 * ```
 */
export interface CorsSettings {
  readonly origin: OriginCheck;
  readonly methods: string;
  /** `undefined`: reflect the request's `Access-Control-Request-Headers`. */
  readonly allowedHeaders: string | undefined;
  readonly exposedHeaders: string | undefined;
  readonly credentials: boolean;
  readonly maxAge: string | undefined;
}

const KNOWN = ['origin', 'methods', 'allowedHeaders', 'exposedHeaders', 'credentials', 'maxAge'];
const DEFAULT_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Checks the options and prepares what every request reuses (a coded error names the first bad one).
 *
 * @example
 * ```ts
 * const settings = corsSettings({ origin: '*', maxAge: 600 });
 * settings.maxAge; // '600'
 * ```
 */
export function corsSettings(options: CorsOptions | undefined): CorsSettings {
  if (options === undefined || options === null || typeof options !== 'object') {
    throw corsError('HICKORY_ERR_CORS_OPTION', 'origin', "is required: say which origins may call, e.g. use(corsPlugin, { origin: 'https://app.example.com' }) (or '*' for any site, without credentials)");
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key)) throw corsError('HICKORY_ERR_CORS_OPTION', key, `is unknown (known: ${KNOWN.join(', ')})`);
  }
  const { credentials = false, maxAge } = options;
  if (typeof credentials !== 'boolean') throw corsError('HICKORY_ERR_CORS_OPTION', 'credentials', 'must be true or false');
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 0)) {
    throw corsError('HICKORY_ERR_CORS_OPTION', 'maxAge', 'must be a whole number of seconds (0 or more)');
  }
  const origin = compileOrigin(options.origin);
  if (origin.wildcard && credentials) throw corsError('HICKORY_ERR_CORS_CREDENTIALS_WILDCARD');
  return {
    origin,
    methods: tokenList('methods', options.methods) ?? DEFAULT_METHODS,
    allowedHeaders: tokenList('allowedHeaders', options.allowedHeaders),
    exposedHeaders: tokenList('exposedHeaders', options.exposedHeaders),
    credentials,
    maxAge: maxAge === undefined ? undefined : String(maxAge),
  };
}

// A list of methods or header names as one header value ('*' is one of the tokens allowed).
function tokenList(key: string, value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const items = typeof value === 'string' ? value.split(',').map((item) => item.trim()).filter((item) => item !== '') : value;
  if (!Array.isArray(items) || items.some((item) => typeof item !== 'string' || !TOKEN.test(item))) {
    throw corsError('HICKORY_ERR_CORS_OPTION', key, 'must be a list of HTTP tokens (method or header names), as an array or a comma-separated string');
  }
  // An empty list sends nothing, as the `cors` package does.
  return items.length === 0 ? undefined : items.join(',');
}
