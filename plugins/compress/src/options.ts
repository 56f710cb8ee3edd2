import { compressError } from './errors.ts';

/** A content coding the plugin can produce. */
export type Encoding = 'br' | 'gzip';

/**
 * Options of `compressPlugin`.
 *
 * @example
 * ```ts
 * kernel.use(compressPlugin, { threshold: 2048, encodings: ['gzip'] });
 * ```
 */
export interface CompressOptions {
  /** Bodies shorter than this many bytes are sent as they are (default 1024). A stream of unknown length is always compressed. */
  threshold?: number;
  /** The codings offered, in the server's order of preference for ties (default `['br', 'gzip']`). */
  encodings?: readonly Encoding[];
}

/** Options with their defaults filled in. */
export interface CompressSettings {
  readonly threshold: number;
  readonly encodings: readonly Encoding[];
}

const KNOWN = ['threshold', 'encodings'];
const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

/**
 * Checks the options (a coded error names the first bad one) and fills in the defaults.
 *
 * @example
 * ```ts
 * checkOptions({ encodings: ['gzip'] }); // { threshold: 1024, encodings: ['gzip'] }
 * ```
 */
export function checkOptions(options: CompressOptions | undefined): CompressSettings {
  const given = options ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw compressError('HICKORY_ERR_COMPRESS_OPTION', '(options)', 'must be an object such as { threshold: 1024, encodings: ["br", "gzip"] }');
  }
  for (const key of Object.keys(given)) {
    if (!KNOWN.includes(key)) throw compressError('HICKORY_ERR_COMPRESS_OPTION', key, `is unknown (known: ${KNOWN.join(', ')})`);
  }
  const { threshold = 1024, encodings = ENCODINGS } = given;
  if (!Number.isSafeInteger(threshold) || threshold < 0) {
    throw compressError('HICKORY_ERR_COMPRESS_OPTION', 'threshold', `must be a byte count, 0 or more (got ${String(threshold)})`);
  }
  if (!Array.isArray(encodings) || encodings.length === 0) {
    throw compressError('HICKORY_ERR_COMPRESS_OPTION', 'encodings', 'must be a non-empty list of "br" and "gzip" (leave the plugin out to compress nothing)');
  }
  for (const encoding of encodings as unknown[]) {
    if (!ENCODINGS.includes(encoding as Encoding)) {
      throw compressError('HICKORY_ERR_COMPRESS_OPTION', 'encodings', `has ${JSON.stringify(encoding)}: only "br" and "gzip" are offered`);
    }
  }
  if (new Set(encodings).size !== encodings.length) throw compressError('HICKORY_ERR_COMPRESS_OPTION', 'encodings', 'names a coding twice');
  return { threshold, encodings: [...encodings] };
}
