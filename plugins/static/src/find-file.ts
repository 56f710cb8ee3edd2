import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** A regular file found under the static root. */
export interface FoundFile {
  /** The file's real path (symbolic links resolved). */
  readonly path: string;
  /** Its path relative to the root, URL-encoded segment by segment (what `send` expects). */
  readonly urlPath: string;
  readonly stats: Stats;
}

// After decoding, a segment may not hold a separator, NUL or control characters.
const BAD_SEGMENT = /[/\\\u0000-\u001f\u007f]/;

/**
 * The regular file that a request path names under `root` (a real, absolute directory path),
 * or `undefined`. Refused without touching the disk: malformed escapes, empty segments (`//`,
 * a trailing `/`), `.`/`..`, dotfiles, and segments that decode to `/`, `\`, NUL or control
 * characters. What is left is joined under the root and its real path (symbolic links resolved)
 * must still be inside the root, so neither `..`, an absolute path, a sibling directory sharing
 * the root's prefix, nor a link can lead out.
 *
 * @example
 * ```ts
 * await findFile('/srv/public', '/css/site.css'); // { path: '/srv/public/css/site.css', ... }
 * await findFile('/srv/public', '/%2e%2e/secret'); // undefined
 * ```
 */
export async function findFile(root: string, urlPath: string): Promise<FoundFile | undefined> {
  const segments = fileSegments(urlPath);
  return segments === undefined ? undefined : findFileAt(root, segments);
}

/**
 * The decoded segments of a request path that could name a file under a static root, or
 * `undefined` when it cannot (see {@link findFile}: decided without touching the disk).
 *
 * @example
 * ```ts
 * fileSegments('/css/site.css'); // ['css', 'site.css']
 * fileSegments('/books/'); // undefined
 * ```
 */
export function fileSegments(urlPath: string): string[] | undefined {
  const raw = urlPath.split('/');
  if (raw[0] !== '' || raw.length < 2) return undefined;
  const segments: string[] = [];
  for (let i = 1; i < raw.length; i++) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw[i]!);
    } catch {
      return undefined;
    }
    if (segment.length === 0 || segment.charCodeAt(0) === 46 /* . */ || BAD_SEGMENT.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

/**
 * {@link findFile} for segments {@link fileSegments} gave.
 *
 * @example
 * ```ts
 * await findFileAt('/srv/public', ['css', 'site.css']);
 * ```
 */
export async function findFileAt(root: string, segments: readonly string[]): Promise<FoundFile | undefined> {
  const inside = root + sep;
  const candidate = join(root, ...segments);
  if (!candidate.startsWith(inside)) return undefined;
  let path: string;
  let stats: Stats;
  try {
    path = await realpath(candidate);
    if (!path.startsWith(inside)) return undefined;
    stats = await stat(path);
  } catch {
    return undefined;
  }
  if (!stats.isFile()) return undefined;
  const rel = relative(root, path).split(sep);
  // A link may point at a dotfile: those stay private as well.
  if (rel.some((part) => part.charCodeAt(0) === 46)) return undefined;
  return { path, urlPath: '/' + rel.map(encodeURIComponent).join('/'), stats };
}
