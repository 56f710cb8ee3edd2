import { websocketError } from './errors.ts';

/** Which `Origin`s may open a socket: a list of origins, or a function that decides. */
export type AllowedOrigins = readonly string[] | ((origin: string) => boolean);

/** Options of `websocketPlugin`. */
export interface WebsocketOptions {
  /** The largest message accepted, in bytes (default 1 MiB): a larger one closes the socket with 1009. */
  readonly maxPayload?: number;
  /**
   * The `Origin`s a browser page may connect from (cross-site WebSocket hijacking: a browser sends
   * the page's cookies with the upgrade): origins such as `https://app.example.com`, or a function
   * of the `Origin` header. Default: the request's own origin only. Another origin is answered 403,
   * before the upgrade. A request without `Origin` (not a browser) is not judged.
   */
  readonly allowedOrigins?: AllowedOrigins;
  /**
   * Every `pingInterval` ms (default 30 000) each socket is pinged; one that has not answered the
   * previous ping (nor sent anything) since is terminated. `0` turns pings off.
   */
  readonly pingInterval?: number;
}

/** The options checked, with their defaults. */
export interface Settings {
  readonly maxPayload: number;
  /** `undefined`: the request's own origin only. */
  readonly allowed: ((origin: string) => boolean) | undefined;
  readonly pingInterval: number;
}

const MiB = 1024 * 1024;

/**
 * Checks `websocketPlugin`'s options: a wrong one is a coded error naming it and what it takes.
 *
 * @example
 * ```ts
 * checkOptions({ maxPayload: 65_536, allowedOrigins: ['https://app.example.com'] });
 * ```
 */
export function checkOptions(options: WebsocketOptions | undefined): Settings {
  const given = options ?? {};
  const fail = (name: string, problem: string): never => {
    throw websocketError('HICKORY_ERR_WEBSOCKET_OPTION', name, problem);
  };
  const maxPayload = given.maxPayload ?? MiB;
  if (!Number.isSafeInteger(maxPayload) || maxPayload < 1) fail('maxPayload', `must be a positive whole number of bytes (got ${String(maxPayload)})`);
  const pingInterval = given.pingInterval ?? 30_000;
  if (!Number.isSafeInteger(pingInterval) || pingInterval < 0 || pingInterval > 2_147_483_647) {
    fail('pingInterval', `must be a whole number of milliseconds, 0 for no pings (got ${String(pingInterval)})`);
  }
  return { maxPayload, allowed: allowedOrigins(given.allowedOrigins, fail), pingInterval };
}

function allowedOrigins(given: unknown, fail: (name: string, problem: string) => never): ((origin: string) => boolean) | undefined {
  if (given === undefined) return undefined;
  if (typeof given === 'function') return given as (origin: string) => boolean;
  if (!Array.isArray(given)) return fail('allowedOrigins', 'must be a list of origins such as "https://app.example.com", or a function (origin) => boolean');
  const origins = new Set<string>();
  for (const entry of given as unknown[]) {
    const origin = typeof entry === 'string' ? normalOrigin(entry) : undefined;
    if (origin === undefined) fail('allowedOrigins', `has ${JSON.stringify(entry)}, which is not an origin such as "https://app.example.com" (scheme, host and port only)`);
    origins.add(origin!);
  }
  return (origin) => origins.has(normalOrigin(origin) ?? origin);
}

/**
 * `scheme://host[:port]` as browsers write it (lower case, the default port left out), or
 * `undefined` when `text` is not an origin (a path, a query, `null`).
 *
 * @example
 * ```ts
 * normalOrigin('HTTPS://App.Example.com:443'); // 'https://app.example.com'
 * ```
 */
export function normalOrigin(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  // Only scheme, host and port: a path, query, fragment or credentials make it no origin.
  return url.origin !== 'null' && url.href === `${url.origin}/` ? url.origin : undefined;
}
