import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, isAbsolute, relative } from 'node:path';
import type { Logger } from '@hickory/core';
import { configFile } from './load-app.ts';
import { reloadFilter, type ReloadPatterns } from './reload-filter.ts';
import { consoleLogger } from './request-log.ts';
import { watchTree } from './watch-tree.ts';
import type { WorkerMessage } from './workers.ts';

// Editors write a file in several steps; restart once they are done.
const SETTLE_MS = 100;
// A file that restarts the server again and again, each time this soon after the server started,
// is probably written by the app itself (a JSON store, a cache): worth a warning naming --ignore.
const SELF_WRITE_MS = 2_000;
const SELF_WRITE_STREAK = 3;

/** Options of {@link superviseWithReload}. */
export interface ReloadOptions extends ReloadPatterns {
  /** Where the supervisor's lines go (default: the console). */
  readonly logger?: Logger;
}

/**
 * `hickory serve --reload`: runs the server in a child process (this command again, given
 * `childArgs`) and restarts it when a source file under the config file's folder changes — code,
 * JSON and templates (see `RELOAD_EXTENSIONS`), plus the `watch` globs, minus the `ignore` ones;
 * node_modules, dist and hidden files aside. A database file the app writes never restarts it.
 * When the very first start fails (for example a broken config file), exits with the child's
 * code; a server started after a change that fails (a syntax error saved mid-edit) is reported
 * and the next change starts it again. SIGINT/SIGTERM stop the child gracefully and exit with its code.
 *
 * @example
 * ```ts
 * superviseWithReload('sandbox/config.ts', ['serve', 'sandbox/config.ts', '--port', '8080'], { ignore: ['uploads/**'] });
 * ```
 */
export function superviseWithReload(configPath: string, childArgs: readonly string[], options: ReloadOptions = {}): void {
  const logger = options.logger ?? consoleLogger;
  const root = dirname(configFile(configPath));
  let child: ChildProcess | undefined;
  let served = false;
  let changed = false;
  let restarting = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let listeningAt = 0;
  let lastCause = '';
  let streak = 0;
  const warned = new Set<string>();

  const start = () => {
    const current = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...childArgs], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    child = current;
    listeningAt = 0;
    current.on('message', (message: WorkerMessage) => {
      if (message?.hickory !== 'listening') return;
      served = true;
      listeningAt = Date.now();
    });
    current.on('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopping) return process.exit(code ?? 0);
      if (restarting) {
        restarting = false;
        return start();
      }
      // Only the start the user asked for ends the command; after a change, the next one may fix it.
      if (!served && !changed) return process.exit(code ?? 1);
      logger.warn(`the server stopped (${signal ?? `exit code ${code}`}); waiting for a change to restart it`);
    });
  };

  const restart = (file: string) => {
    if (stopping) return;
    const shown = shownPath(file);
    const soon = child !== undefined && (!listeningAt || Date.now() - listeningAt < SELF_WRITE_MS);
    streak = file === lastCause && soon ? streak + 1 : 1;
    if (streak >= SELF_WRITE_STREAK && !warned.has(file)) {
      warned.add(file);
      logger.warn(`${shown} changes each time the server starts: if the app writes it, pass --ignore '${relative(root, file)}'`);
    }
    lastCause = file;
    changed = true;
    logger.info(`${shown} changed: restarting`);
    if (!child) return start();
    restarting = true;
    child.kill('SIGTERM');
  };

  const watcher = watchTree(root, (file) => {
    clearTimeout(timer);
    timer = setTimeout(() => restart(file), SETTLE_MS);
  }, reloadFilter(options));

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    clearTimeout(timer);
    watcher.close();
    if (child) child.kill(signal);
    else process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  start();
}

// Relative to the working folder when it is below it: shorter, and what the user typed.
function shownPath(file: string): string {
  const path = relative(process.cwd(), file);
  return path && !path.startsWith('..') && !isAbsolute(path) ? path : file;
}
