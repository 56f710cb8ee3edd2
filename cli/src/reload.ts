import { spawn, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import type { Logger } from '@hickory/core';
import { configFile } from './load-app.ts';
import { consoleLogger } from './request-log.ts';
import { watchTree } from './watch-tree.ts';
import type { WorkerMessage } from './workers.ts';

// Editors write a file in several steps; restart once they are done.
const SETTLE_MS = 100;

/**
 * `hickory serve --reload`: runs the server in a child process (this command again, given
 * `childArgs`) and restarts it when a file under the config file's folder changes (node_modules,
 * dist and hidden files aside). When the first start fails (for example a broken config file),
 * exits with the child's code; a later failure waits for the next change. SIGINT/SIGTERM stop
 * the child gracefully and exit with its code.
 *
 * @example
 * ```ts
 * superviseWithReload('sandbox/config.ts', ['serve', 'sandbox/config.ts', '--port', '8080']);
 * ```
 */
export function superviseWithReload(configPath: string, childArgs: readonly string[], logger: Logger = consoleLogger): void {
  const root = dirname(configFile(configPath));
  let child: ChildProcess | undefined;
  let served = false;
  let restarting = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  const start = () => {
    const current = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...childArgs], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    child = current;
    current.on('message', (message: WorkerMessage) => {
      if (message?.hickory === 'listening') served = true;
    });
    current.on('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopping) return process.exit(code ?? 0);
      if (restarting) {
        restarting = false;
        return start();
      }
      if (!served) return process.exit(code ?? 1);
      logger.warn(`the server stopped (${signal ?? `exit code ${code}`}); waiting for a change to restart it`);
    });
  };

  const restart = (file: string) => {
    if (stopping) return;
    logger.info(`${file} changed: restarting`);
    if (!child) return start();
    restarting = true;
    child.kill('SIGTERM');
  };

  const watcher = watchTree(root, (file) => {
    clearTimeout(timer);
    timer = setTimeout(() => restart(file), SETTLE_MS);
  });

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
