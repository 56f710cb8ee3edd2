import { createRequire } from 'node:module';
import type proxyaddr from '@fastify/proxy-addr';
import { coreError } from './errors.ts';

/**
 * The `trust_proxy` configuration value: which hops in front of the app may report the client's
 * address, scheme and host. `false` (the default) trusts none; `true` every one; a number that
 * many hops counted from the app; a list (or a comma-separated string) of addresses, CIDRs and the
 * names `loopback`, `linklocal`, `uniquelocal` — the values express and fastify accept.
 *
 * @example
 * ```ts
 * const trust: TrustProxy = ['loopback', '10.0.0.0/8'];
 * ```
 */
export type TrustProxy = boolean | number | string | readonly string[];

/**
 * Whether the hop at `address` may be believed; `hop` counts from 0, the socket's peer.
 *
 * @example
 * ```ts
 * const trust: TrustHop = (address, hop) => hop < 1;
 * ```
 */
export type TrustHop = (address: string, hop: number) => boolean;

const trustAll: TrustHop = () => true;

/**
 * Turns a `trust_proxy` value into the check of one hop, or `undefined` when nothing is trusted
 * (so a request never looks at forwarding headers). A bad value throws
 * `HICKORY_ERR_CONFIG_TRUST_PROXY`, naming the value and the fix: the kernel calls this at `ready()`.
 *
 * @example
 * ```ts
 * const trust = compileTrustProxy('loopback, 10.0.0.0/8')!;
 * trust('10.1.2.3', 0); // true
 * trust('203.0.113.9', 0); // false
 * ```
 */
export function compileTrustProxy(value: unknown): TrustHop | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return trustAll;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw badTrust(value, 'a hop count is a whole number, 0 or more');
    // express's reading of a count: the first `value` hops from the socket are proxies.
    return value === 0 ? undefined : (_address, hop) => hop < value;
  }
  const list = typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value;
  if (!Array.isArray(list)) throw badTrust(value, 'it is neither true/false, a hop count, nor a list of addresses');
  if (list.length === 0) return undefined;
  for (const item of list) {
    if (typeof item !== 'string' || item === '') throw badTrust(value, `${show(item)} is not an address, a CIDR or one of loopback, linklocal, uniquelocal`);
  }
  try {
    return loadProxyAddr().compile(list as string[]);
  } catch (error) {
    // proxy-addr says which entry is wrong ("invalid IP address: x"); keep its words.
    throw badTrust(value, (error as Error).message);
  }
}

function badTrust(value: unknown, reason: string) {
  return coreError('HICKORY_ERR_CONFIG_TRUST_PROXY', show(value), reason);
}

function show(value: unknown): string {
  return Array.isArray(value) ? `[${value.map(showOne).join(', ')}]` : showOne(value);
}

function showOne(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' ? 'an object' : String(value);
}

// proxy-addr (with ipaddr.js) loads only for a `trust_proxy` list, the one value that needs it;
// synchronously, since the check runs during the synchronous configuration step.
const load = createRequire(import.meta.url);
let proxyAddr: typeof proxyaddr | undefined;

function loadProxyAddr(): typeof proxyaddr {
  return (proxyAddr ??= load('@fastify/proxy-addr') as typeof proxyaddr);
}
