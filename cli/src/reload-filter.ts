import picomatch from 'picomatch';

/**
 * The extensions whose change restarts `hickory serve --reload` by default: code, JSON (config,
 * package.json) and the first-party template engines' templates. Anything else — a SQLite file and
 * its `-wal`/`-shm`/`-journal` companions, uploads, logs — is what a running app writes, and
 * restarting on it would restart forever.
 *
 * @example
 * ```ts
 * RELOAD_EXTENSIONS.code.includes('.ts'); // true
 * ```
 */
export const RELOAD_EXTENSIONS = Object.freeze({
  code: Object.freeze(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.json']),
  templates: Object.freeze(['.ejs', '.njk', '.nunjucks', '.hbs', '.handlebars']),
});
const RESTARTING = new Set([...RELOAD_EXTENSIONS.code, ...RELOAD_EXTENSIONS.templates]);

const IGNORED_FOLDERS = new Set(['node_modules', 'dist', 'test-output', 'coverage']);

/**
 * Whether `--reload` ignores a file or folder name by default: dependencies, build output, and
 * hidden or editor-temporary names (`.git`, `.x.swp`, `x~`).
 *
 * @example
 * ```ts
 * isIgnoredName('node_modules'); // true
 * isIgnoredName('root.ts'); // false
 * ```
 */
export function isIgnoredName(name: string): boolean {
  return IGNORED_FOLDERS.has(name) || name.startsWith('.') || name.endsWith('~');
}

/** Which paths (relative to the watched folder, `/`-separated) `--reload` follows. */
export interface ReloadFilter {
  /** Whether a change to this file restarts the server. */
  restartsFor(relative: string): boolean;
  /** Whether this folder is not watched at all (nothing under it can restart). */
  skipsFolder(relative: string): boolean;
}

/** The `--watch` and `--ignore` globs of `hickory serve --reload`. */
export interface ReloadPatterns {
  /** Globs of more files that restart (any extension, hidden ones included), relative to the config file's folder. */
  readonly watch?: readonly string[];
  /** Globs of files or folders that never restart; they win over `watch` and the defaults. */
  readonly ignore?: readonly string[];
}

/**
 * What `--reload` follows: files with one of {@link RELOAD_EXTENSIONS} outside ignored names,
 * plus the `watch` globs, minus the `ignore` globs (picomatch syntax: `data/**`, `*.yaml`; a
 * folder's name or glob skips the whole folder).
 *
 * @example
 * ```ts
 * const filter = reloadFilter({ watch: ['*.yaml'], ignore: ['generated/**'] });
 * filter.restartsFor('src/root.ts'); // true
 * filter.restartsFor('data/books.sqlite-wal'); // false
 * filter.restartsFor('routes.yaml'); // true
 * filter.skipsFolder('generated'); // true
 * ```
 */
export function reloadFilter(patterns: ReloadPatterns = {}): ReloadFilter {
  const watch = patterns.watch ?? [];
  const ignore = patterns.ignore ?? [];
  const watched = watch.length ? picomatch([...watch], { dot: true }) : () => false;
  const ignored = ignore.length ? picomatch([...ignore], { dot: true }) : () => false;
  // The folders a watch glob starts in, so that `--watch '.config/*.toml'` reaches a hidden folder.
  const watchBases = watch.map((glob) => picomatch.scan(glob).base).filter(Boolean);
  const hiddenByDefault = (relative: string) => relative.split('/').some(isIgnoredName);
  return {
    restartsFor(relative) {
      if (ignored(relative)) return false;
      if (watched(relative)) return true;
      if (hiddenByDefault(relative)) return false;
      const dot = relative.lastIndexOf('.');
      return dot > relative.lastIndexOf('/') && RESTARTING.has(relative.slice(dot));
    },
    skipsFolder(relative) {
      if (ignored(relative)) return true;
      if (!hiddenByDefault(relative)) return false;
      return !watchBases.some((base) => base === relative || base.startsWith(`${relative}/`) || relative.startsWith(`${base}/`));
    },
  };
}
