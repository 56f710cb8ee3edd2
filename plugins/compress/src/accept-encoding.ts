import type { Encoding } from './options.ts';

// Hand-written rather than `negotiator`: that package breaks ties by the client's order, and
// browsers list `gzip` before `br` ("gzip, deflate, br, zstd") although br is the smaller; here
// ties go to the server's order. It also knows no `x-gzip` (RFC 9110 §8.4.1.3: gzip's alias).
// Entries read per header, at most: past that the rest of a (hostile) header is ignored.
const MAX_ENTRIES = 32;
const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The coding to answer in for an `Accept-Encoding` value, or `undefined` for none (identity).
 * Each offered coding takes the quality the header gives it by name (`x-gzip` is gzip), else
 * that of `*`, else none; the highest quality above 0 wins, ties in the order offered. `q=0`
 * refuses a coding; `identity` named with a higher quality than the best coding keeps the body
 * as it is. An empty or absent header asks for nothing: no coding. A malformed `q` drops its entry.
 *
 * @example
 * ```ts
 * chooseEncoding('gzip, deflate, br', ['br', 'gzip']); // 'br'
 * chooseEncoding('br;q=0, gzip;q=0.5', ['br', 'gzip']); // 'gzip'
 * chooseEncoding('gzip;q=0.2, identity', ['br', 'gzip']); // undefined
 * ```
 */
export function chooseEncoding(header: string, offered: readonly Encoding[]): Encoding | undefined {
  const named = new Map<string, number>();
  let start = 0;
  for (let count = 0; start < header.length && count < MAX_ENTRIES; count++) {
    let end = header.indexOf(',', start);
    if (end === -1) end = header.length;
    readEntry(header.slice(start, end), named);
    start = end + 1;
  }
  const any = named.get('*');
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const coding of offered) {
    const q = named.get(coding) ?? (coding === 'gzip' ? named.get('x-gzip') : undefined) ?? any ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  const identity = named.get('identity');
  return identity !== undefined && identity > bestQ ? undefined : best;
}

function readEntry(entry: string, named: Map<string, number>): void {
  const semi = entry.indexOf(';');
  const coding = (semi === -1 ? entry : entry.slice(0, semi)).trim().toLowerCase();
  if (coding.length === 0) return;
  let q = 1;
  if (semi !== -1) {
    const match = /(?:^|;)\s*q\s*=\s*([^;\s]*)\s*(?:;|$)/i.exec(entry.slice(semi));
    if (match !== null) {
      if (!Q_VALUE.test(match[1]!)) return;
      q = Number(match[1]);
    }
  }
  // The first mention of a coding counts, as a cache would read it.
  if (!named.has(coding)) named.set(coding, q);
}
