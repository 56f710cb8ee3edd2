import { watch, readdirSync, statSync, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { reloadFilter, type ReloadFilter } from './reload-filter.ts';

/** A running {@link watchTree}. */
export interface TreeWatcher {
  /** Stops watching. */
  close(): void;
}

/**
 * Watches a folder and its subfolders (one non-recursive watcher per folder, so that skipped
 * folders such as node_modules are never walked), calling `onChange` with the path of each
 * changed file the filter follows. A folder created later is watched too, and the files it
 * arrives with count as changed (a folder moved or checked out into place).
 *
 * @example
 * ```ts
 * const watcher = watchTree('/srv/app', (file) => console.log(file, 'changed'));
 * watcher.close();
 * ```
 */
export function watchTree(root: string, onChange: (file: string) => void, filter: ReloadFilter = reloadFilter()): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  const relativeOf = (path: string) => relative(root, path).split(sep).join('/');

  const add = (dir: string, announce: boolean): void => {
    if (closed || watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (!name) return;
        const path = join(dir, String(name));
        if (isFolder(path)) {
          if (!filter.skipsFolder(relativeOf(path))) add(path, true);
        } else if (filter.restartsFor(relativeOf(path))) {
          onChange(path);
        }
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
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!filter.skipsFolder(relativeOf(path))) add(path, announce);
      } else if (announce && filter.restartsFor(relativeOf(path))) {
        onChange(path);
      }
    }
  };

  add(root, false);
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
