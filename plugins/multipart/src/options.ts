import { tmpdir } from 'node:os';
import { multipartError } from './errors.ts';

/** Bounds on one multipart body; past any of them the request gets a 413 naming the limit. */
export interface MultipartLimits {
  /** Most parts (fields and files together). Default 1000. */
  parts?: number;
  /** Most files. Default 10. */
  files?: number;
  /** Largest file, in bytes. Default 10 MiB. */
  fileSize?: number;
  /** Most text fields. Default 1000. */
  fields?: number;
  /** Largest text field value, in bytes. Default 1 MiB. */
  fieldSize?: number;
  /** Most bytes of text field values in one form, all fields together (they are held in memory). Default 20 MiB. */
  totalFieldSize?: number;
  /** Most header lines in one part. Default 2000. */
  headerPairs?: number;
}

/**
 * Options of `multipartPlugin`.
 *
 * @example
 * ```ts
 * kernel.use(multipartPlugin, { limits: { fileSize: 50 * 1024 * 1024 }, memoryThreshold: 64 * 1024 });
 * ```
 */
export interface MultipartOptions {
  /** See {@link MultipartLimits}. */
  limits?: MultipartLimits;
  /** Files up to this many bytes stay in memory; larger ones go to a temporary file. Default 256 KiB. */
  memoryThreshold?: number;
  /** Directory of the temporary files. Default: the system's temporary directory. */
  tmpdir?: string;
}

/** {@link MultipartOptions} with every default filled in. */
export interface ResolvedMultipartOptions {
  readonly limits: Readonly<Required<MultipartLimits>>;
  readonly memoryThreshold: number;
  readonly tmpdir: string;
}

const MiB = 1024 * 1024;

/** The default limits (see {@link MultipartLimits}). */
const DEFAULT_LIMITS: Readonly<Required<MultipartLimits>> = Object.freeze({
  parts: 1000,
  files: 10,
  fileSize: 10 * MiB,
  fields: 1000,
  fieldSize: MiB,
  totalFieldSize: 20 * MiB,
  headerPairs: 2000,
});

const KNOWN = ['limits', 'memoryThreshold', 'tmpdir'];

/** Default {@link MultipartOptions.memoryThreshold}. */
const DEFAULT_MEMORY_THRESHOLD = 256 * 1024;

/**
 * Checks the options (a coded error names the first bad one) and fills in the defaults.
 *
 * @example
 * ```ts
 * resolveOptions({ limits: { files: 2 } }).limits.files; // 2
 * ```
 */
export function resolveOptions(options: MultipartOptions | undefined): ResolvedMultipartOptions {
  const given = options ?? {};
  if (!isRecord(given)) throw multipartError('HICKORY_ERR_MULTIPART_OPTION', '(options)', `must be an object with ${KNOWN.join(', ')}`);
  // An option under another name would be ignored, and its limit with it.
  for (const key of Object.keys(given)) {
    if (!KNOWN.includes(key)) throw multipartError('HICKORY_ERR_MULTIPART_OPTION', key, `is unknown (known: ${KNOWN.join(', ')})`);
  }
  const limits: Record<string, number> = { ...DEFAULT_LIMITS };
  const custom = given.limits ?? {};
  if (!isRecord(custom)) throw multipartError('HICKORY_ERR_MULTIPART_OPTION', 'limits', `must be an object such as { fileSize: 50 * 1024 * 1024 } (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`);
  for (const key of Object.keys(custom)) {
    if (!(key in DEFAULT_LIMITS)) {
      throw multipartError('HICKORY_ERR_MULTIPART_OPTION', `limits.${key}`, `is unknown (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`);
    }
    const value = (custom as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw multipartError('HICKORY_ERR_MULTIPART_OPTION', `limits.${key}`, `must be a positive integer (got ${String(value)})`);
    }
    limits[key] = value as number;
  }
  const memoryThreshold = given.memoryThreshold ?? DEFAULT_MEMORY_THRESHOLD;
  if (!Number.isSafeInteger(memoryThreshold) || memoryThreshold < 0) {
    throw multipartError('HICKORY_ERR_MULTIPART_OPTION', 'memoryThreshold', `must be a number of bytes, 0 or more (got ${String(memoryThreshold)})`);
  }
  const dir = given.tmpdir ?? tmpdir();
  if (typeof dir !== 'string' || dir.length === 0) {
    throw multipartError('HICKORY_ERR_MULTIPART_OPTION', 'tmpdir', 'must be a directory path');
  }
  return { limits: Object.freeze(limits) as Required<MultipartLimits>, memoryThreshold, tmpdir: dir };
}

// Not a type guard: the options keep their declared type once checked.
function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
