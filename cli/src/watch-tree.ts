import { watch, readdirSync, statSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

const IGNORED_FOLDERS = new Set(['node_modules', 'dist', 'test-output', 'coverage']);

/**
 * Whether `--reload` ignores a file or folder name: dependencies, build output, and hidden or
 * editor-temporary names (`.git`, `.x.swp`, `x~`).
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

/** A running {@link watchTree}. */
export interface TreeWatcher {
  /** Stops watching. */
  close(): void;
}

/**
 * Watches a folder and its subfolders (one non-recursive watcher per folder, so that ignored
 * folders such as node_modules are never walked), calling `onChange` with the path of each
 * changed file. Folders created later are watched too.
 *
 * @example
 * ```ts
 * const watcher = watchTree('/srv/app', (file) => console.log(file, 'changed'));
 * watcher.close();
 * ```
 */
export function watchTree(root: string, onChange: (file: string) => void, ignore = isIgnoredName): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const add = (dir: string): void => {
    if (closed || watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (!name || ignore(String(name))) return;
        const path = join(dir, String(name));
        if (isFolder(path)) add(path);
        onChange(path);
      });
    } catch {
      return; // gone, or not readable: nothing to watch
    }
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(dir);
    });
    watchers.set(dir, watcher);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && !ignore(entry.name)) add(join(dir, entry.name));
  };

  add(root);
  return {
    close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
