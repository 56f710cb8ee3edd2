// The one Accept parser: dispatch's content negotiation and the kernel's default error bodies
// both choose with it, so that a header means the same to both. Hand-written rather than the
// \`accepts\` package for Pecan's reading (parameters other than q are ignored, ties go to the
// type offered first) and a bound on what a hostile header costs.
// Accept entries read per header, at most: past that, the rest of a (hostile) header is ignored.
const MAX_ENTRIES = 64;
const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/**
 * The offered media type an `Accept` header prefers, or `false` when it accepts none of them.
 * Each offered type takes the quality of the most specific range that matches it (`type/subtype`,
 * then `type/*`, then `*\/*`); the highest quality wins, ties go to the type offered first.
 * Parameters other than `q` are ignored, as Pecan does (`application/json;discard=me` accepts
 * JSON); a malformed `q` drops its entry. Linear in the header's length, whatever it holds.
 *
 * @example
 * ```ts
 * preferredType('application/json,text/html;q=0.9,*\/*;q=0.8', ['text/html', 'application/json']); // 'application/json'
 * preferredType('image/png', ['text/html']); // false
 * ```
 */
export function preferredType(accept: string, offered: readonly string[]): string | false {
  const ranges = parseAccept(accept);
  let best: string | false = false;
  let bestQ = 0;
  for (const type of offered) {
    const q = qualityOf(type, ranges);
    if (q > bestQ) {
      best = type;
      bestQ = q;
    }
  }
  return best;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  let start = 0;
  while (start < accept.length && ranges.length < MAX_ENTRIES) {
    let end = accept.indexOf(',', start);
    if (end === -1) end = accept.length;
    const range = parseRange(accept.slice(start, end));
    if (range !== undefined) ranges.push(range);
    start = end + 1;
  }
  return ranges;
}

function parseRange(entry: string): MediaRange | undefined {
  const semi = entry.indexOf(';');
  const mediaRange = (semi === -1 ? entry : entry.slice(0, semi)).trim().toLowerCase();
  const slash = mediaRange.indexOf('/');
  if (slash <= 0 || slash === mediaRange.length - 1) return undefined;
  let q = 1;
  if (semi !== -1) {
    for (const parameter of entry.slice(semi + 1).split(';')) {
      const eq = parameter.indexOf('=');
      if (eq === -1 || parameter.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = parameter.slice(eq + 1).trim();
      if (!Q_VALUE.test(value)) return undefined;
      q = Number(value);
      break; // what follows q are accept-extensions, not media type parameters
    }
  }
  return { type: mediaRange.slice(0, slash), subtype: mediaRange.slice(slash + 1), q };
}

function qualityOf(offered: string, ranges: readonly MediaRange[]): number {
  const slash = offered.indexOf('/');
  const type = offered.slice(0, slash).toLowerCase();
  const subtype = offered.slice(slash + 1).toLowerCase();
  let specificity = -1;
  let q = 0;
  for (const range of ranges) {
    let matched: number;
    if (range.type === type && range.subtype === subtype) matched = 2;
    else if (range.type === type && range.subtype === '*') matched = 1;
    else if (range.type === '*' && range.subtype === '*') matched = 0;
    else continue;
    if (matched > specificity) {
      specificity = matched;
      q = range.q;
    }
  }
  return q;
}
