import { hostName, validHost } from './host-names.ts';

/**
 * The check of the `allowed_hosts` configuration key: a non-empty list of host names (`example.com`,
 * `localhost`, `127.0.0.1`, `[::1]`), where a leading dot (`.example.com`) stands for the domain and
 * every subdomain. Returns what is wrong, naming the entry and the fix, or `undefined`.
 *
 * @example
 * ```ts
 * checkAllowedHosts(['books.example.com', '.example.org']); // undefined
 * checkAllowedHosts(['*.example.com']); // 'has "*.example.com", …: write ".example.com" …'
 * ```
 */
export function checkAllowedHosts(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'must be a list of host names such as ["books.example.com", ".example.org"] (a leading dot allows the domain and its subdomains)';
  if (value.length === 0) return 'is an empty list, which would refuse every request: list the host names the app answers for, or leave the key out to accept any host';
  for (const entry of value) {
    const problem = entryProblem(entry);
    if (problem !== undefined) return `has ${typeof entry === 'string' ? JSON.stringify(entry) : String(entry)}, ${problem}`;
  }
  return undefined;
}

function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string' || entry === '') return 'which is not a host name: each entry is a string such as "books.example.com"';
  if (entry.startsWith('*')) return `which is a wildcard: write "${entry.replace(/^\*\.?/, '.')}" for a domain and all its subdomains`;
  if (entry.includes('://') || entry.includes('/')) return 'which is a URL: write the host name alone, such as "books.example.com"';
  const name = entry.startsWith('.') ? entry.slice(1) : entry;
  if (validHost(name) !== name) return 'which is not a valid host name (letters, digits, "-", "_" and dots; an IPv6 address in brackets)';
  if (hostName(name) !== name.toLowerCase()) return 'which has a port: write the host name without it (every port of an allowed host is allowed)';
  return undefined;
}

/**
 * Compiles a checked `allowed_hosts` list into a test of a request's `host[:port]` (valid already):
 * true when its name, any case and any port, is listed or is a subdomain of a `.domain` entry.
 *
 * @example
 * ```ts
 * const allowed = compileAllowedHosts(['.example.org']);
 * allowed('www.example.org:8443'); // true
 * allowed('example.org.evil');     // false
 * ```
 */
export function compileAllowedHosts(list: readonly string[]): (host: string) => boolean {
  const exact = new Set<string>();
  const domains: string[] = [];
  for (const entry of list) {
    const name = entry.toLowerCase();
    if (name.startsWith('.')) {
      exact.add(name.slice(1));
      domains.push(name);
    } else {
      exact.add(name);
    }
  }
  return (host) => {
    const name = hostName(host);
    if (exact.has(name)) return true;
    for (const domain of domains) if (name.endsWith(domain)) return true;
    return false;
  };
}
