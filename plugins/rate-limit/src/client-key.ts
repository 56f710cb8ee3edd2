import { isIPv6 } from 'node:net';
import type { Request } from '@hickory/core';

/**
 * The default key of a request: the client's address (`request.remote_addr`, which is the first
 * untrusted hop under `trust_proxy`). An IPv6 address counts by its /64 prefix, since one
 * subscriber usually holds a whole /64 and could otherwise change address on every request; an
 * IPv4-mapped address counts as its IPv4 address.
 *
 * @example
 * ```ts
 * clientKey(request); // '203.0.113.7', or '2001:db8:0:1::/64'
 * ```
 */
export function clientKey(request: Request): string {
  return addressKey(request.remote_addr);
}

/**
 * {@link clientKey} for an address string.
 *
 * @example
 * ```ts
 * addressKey('2001:db8::1:2:3:4'); // '2001:db8:0:0::/64'
 * ```
 */
function addressKey(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  return `${hextets(address).slice(0, 4).join(':')}::/64`;
}

// The eight 16-bit groups of a valid IPv6 address, without leading zeros (`::` expanded; a
// zone id dropped; a trailing dotted IPv4 part counted as two groups).
function hextets(address: string): string[] {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const [head, tail] = plain.includes('::') ? plain.split('::') as [string, string] : [plain, undefined];
  const parts = (text: string): string[] => (text === '' ? [] : text.split(':').flatMap((part) => (part.includes('.') ? fromDotted(part) : [part])));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}

function fromDotted(ipv4: string): string[] {
  const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
