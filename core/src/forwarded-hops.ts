import type { IncomingHttpHeaders } from 'node:http';
import parseForwarded from 'forwarded-parse';

/**
 * What one proxy reported about the request it received, as written (not yet validated):
 * `for` its client's address, `proto` the scheme and `host` the Host it was asked for.
 */
export interface ForwardedHop {
  readonly for?: string | undefined;
  readonly proto?: string | undefined;
  readonly host?: string | undefined;
}

/**
 * The proxies' reports, nearest first: entry 0 is what the socket's peer wrote. Each proxy
 * appends to the lists, so the report of the `j`-th proxy from the app is the `j`-th entry from
 * the right of each list.
 *
 * `X-Forwarded-For`/`-Proto`/`-Host` win: when any of them is present, `Forwarded` (RFC 7239) is
 * not read at all. Nearly every proxy writes the X- headers and passes a client's `Forwarded`
 * through untouched, so preferring `Forwarded` would believe what a client made up. A proxy that
 * writes only `Forwarded` must drop the X- headers a client sends. A `Forwarded` header that does
 * not parse gives no report (never an error).
 *
 * @example
 * ```ts
 * forwardedHops({ 'x-forwarded-for': '203.0.113.7, 10.0.0.2', 'x-forwarded-proto': 'https' });
 * // [{ for: '10.0.0.2', proto: 'https' }, { for: '203.0.113.7' }]
 * forwardedHops({ forwarded: 'for=203.0.113.7;proto=https;host=books.example' });
 * // [{ for: '203.0.113.7', proto: 'https', host: 'books.example' }]
 * ```
 */
export function forwardedHops(headers: IncomingHttpHeaders): ForwardedHop[] {
  const fors = list(headers['x-forwarded-for']);
  const protos = list(headers['x-forwarded-proto']);
  const hosts = list(headers['x-forwarded-host']);
  if (fors.length + protos.length + hosts.length > 0) {
    const hops: ForwardedHop[] = [];
    for (let j = 0; j < Math.max(fors.length, protos.length, hosts.length); j++) {
      hops.push({ for: fromRight(fors, j), proto: fromRight(protos, j), host: fromRight(hosts, j) });
    }
    return hops;
  }
  const forwarded = joined(headers['forwarded']);
  if (forwarded === undefined) return [];
  let elements: Record<string, string>[];
  try {
    elements = parseForwarded(forwarded);
  } catch {
    return [];
  }
  return elements.reverse().map((element) => ({ for: own(element, 'for'), proto: own(element, 'proto'), host: own(element, 'host') }));
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function list(value: string | string[] | undefined): string[] {
  const text = joined(value);
  return text === undefined ? [] : text.split(',').map((item) => item.trim());
}

function fromRight(items: readonly string[], j: number): string | undefined {
  return items[items.length - 1 - j];
}

// The parser fills a plain object: read only what the header itself set.
function own(element: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(element, key) ? element[key] : undefined;
}
