import { isIPv6 } from 'node:net';

// A host name (letters, digits, `-`, `_`, dots between labels), an IPv4 address, or an IPv6
// address in brackets; then an optional port. Nothing that could carry a path, userinfo or spaces.
const HOST = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?))(?::(\d{1,5}))?$/;

/**
 * `value` (trimmed) when it is a valid `host[:port]` — a name, an IPv4 address, or an IPv6 address
 * in brackets, and a port from 1 to 65535 — else `undefined`: no path, userinfo, spaces, markup or
 * control characters. What the `Host` header and a proxy's reported host must both be.
 *
 * @example
 * ```ts
 * validHost('books.example.com:8443'); // 'books.example.com:8443'
 * validHost('user@evil.example');      // undefined
 * ```
 */
export function validHost(value: string | undefined): string | undefined {
  const host = value?.trim();
  if (!host) return undefined;
  const match = HOST.exec(host);
  if (!match) return undefined;
  const [, ipv6, name, port] = match;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return undefined;
  if (name !== undefined && name.includes('..')) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return host;
}

/**
 * The name part of a valid `host[:port]`, lower-cased, without the port (an IPv6 address keeps
 * its brackets).
 *
 * @example
 * ```ts
 * hostName('Books.Example.com:8443'); // 'books.example.com'
 * hostName('[::1]:8080');             // '[::1]'
 * ```
 */
export function hostName(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
  return (end <= 0 ? host : host.slice(0, end)).toLowerCase();
}
