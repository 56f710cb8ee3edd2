import { isIP, isIPv4, isIPv6 } from 'node:net';
import { validHost } from './host-names.ts';

/**
 * The scheme a proxy reported, lower-cased, when it is `http` or `https`; anything else is ignored.
 *
 * @example
 * ```ts
 * forwardedScheme('HTTPS'); // 'https'
 * forwardedScheme('javascript'); // undefined
 * ```
 */
export function forwardedScheme(value: string | undefined): 'http' | 'https' | undefined {
  const scheme = value?.trim().toLowerCase();
  return scheme === 'http' || scheme === 'https' ? scheme : undefined;
}

/**
 * The host a proxy reported when it is a valid `host[:port]` (a name, an IPv4 address, or an IPv6
 * address in brackets; a port from 1 to 65535); anything else is ignored.
 *
 * @example
 * ```ts
 * forwardedHost('books.example.com:8443'); // 'books.example.com:8443'
 * forwardedHost('evil.example/path'); // undefined
 * ```
 */
export function forwardedHost(value: string | undefined): string | undefined {
  return validHost(value);
}

/** A node (`for=`) a proxy reported: an IP address and, when it gave one, a port. */
export interface ForwardedNode {
  readonly address: string;
  readonly port: string;
}

/**
 * The address of a node a proxy reported (an `X-Forwarded-For` entry or a `for=` value):
 * `192.0.2.60`, `192.0.2.60:4711`, `2001:db8::17`, `[2001:db8::17]:4711`. Obfuscated names
 * (`_hidden`), `unknown` and anything that is not an IP address give `undefined`.
 *
 * @example
 * ```ts
 * forwardedNode('[2001:db8::17]:4711'); // { address: '2001:db8::17', port: '4711' }
 * forwardedNode('unknown'); // undefined
 * ```
 */
export function forwardedNode(value: string | undefined): ForwardedNode | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let address = text;
  let port = '';
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return undefined;
    address = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    port = rest.slice(1);
    if (!isIPv6(address)) return undefined;
  } else if (text.indexOf(':') !== -1 && text.indexOf(':') === text.lastIndexOf(':')) {
    // One colon: an IPv4 address with a port (Azure's and some CDNs' X-Forwarded-For entries).
    [address, port] = text.split(':') as [string, string];
    if (!isIPv4(address) || !/^\d{1,5}$/.test(port)) return undefined;
  } else if (isIP(text) === 0) {
    return undefined;
  }
  return { address, port };
}
