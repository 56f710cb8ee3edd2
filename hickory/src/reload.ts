import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { dirname, resolve } from 'node:path';

const IGNORED = /(^|[/\\])(node_modules|\.git|dist|\.turbo|test-output)([/\\]|$)/;

/**
 * `hickory serve --reload`: runs the server in a child process and restarts it when a file under
 * the config file's directory changes (ignoring node_modules, .git and dist).
 *
 * @example
 * ```ts
 * superviseWithReload('sandbox/config.ts', ['serve', 'sandbox/config.ts', '--port', '8080']);
 * ```
 */
export function superviseWithReload(configPath: string, childArgs: string[]): void {
  const root = dirname(resolve(configPath));
  let child: ChildProcess | undefined;
  let restarting = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  const start = () => {
    child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...childArgs], { stdio: 'inherit' });
    child.on('exit', (code) => {
      child = undefined;
      if (stopping) process.exit(code ?? 0);
      if (restarting) {
        restarting = false;
        start();
      }
    });
  };
  const restart = (file: string) => {
    console.log(`hickory: ${file} changed, restarting`);
    if (!child) return start();
    restarting = true;
    child.kill('SIGTERM');
  };
  const watcher = watch(root, { recursive: true }, (_event, file) => {
    if (!file || IGNORED.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => restart(String(file)), 100);
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    watcher.close();
    if (child) child.kill(signal);
    else process.exit(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  start();
}
