import { start, type REPLServer } from 'node:repl';
import { PassThrough } from 'node:stream';
import type { Kernel, ResolvedConfig } from '@hickory/core';
import { stderrLogger } from '@hickory/core/kit';
import { loadApp } from './load-app.ts';
import { feedInOrder } from './ordered-input.ts';

/** What `hickory shell` puts in the REPL's scope. */
interface ShellScope {
  /** The app, after `ready()`, not listening. */
  readonly app: Kernel;
  /** Its root controller. */
  readonly root: object | undefined;
  /** Its resolved configuration. */
  readonly config: ResolvedConfig;
  /** `app.inject()`, with the body parsed as JSON when the response says it is JSON. */
  inject(options: Parameters<Kernel['inject']>[0]): Promise<{ statusCode: number; headers: Record<string, unknown>; body: unknown }>;
}

/**
 * `hickory shell <config>` (Pecan's `pecan shell`): a REPL with the app of a config file loaded —
 * `app`, `root`, `config` and `inject(url | options)` in scope, top-level `await` on — without a
 * socket. `.exit` (or Ctrl-D) closes the app. Lines piped in are evaluated in order, each after
 * the one before has settled (its `await` included).
 *
 * @example
 * ```ts
 * const repl = await startShell('sandbox/config.ts');
 * // hickory> (await inject('/books/')).body
 * ```
 */
export async function startShell(config: string, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<REPLServer> {
  const { app, file } = await loadApp(config, stderrLogger);
  const scope: ShellScope = {
    app,
    root: app.root,
    config: app.config,
    async inject(options) {
      const res = await app.inject(options);
      const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
      return { statusCode: res.statusCode, headers: res.headers, body: json ? res.json() : res.body };
    },
  };
  output.write(`hickory shell: ${file}\n  in scope: app, root, config, inject(url | options) — top-level await works; .exit to leave\n`);
  const terminal = input === process.stdin && process.stdin.isTTY === true;
  // Piped input is fed a line at a time, each once the one before is evaluated (see feedInOrder).
  const sink = terminal ? undefined : new PassThrough();
  const repl = start({ prompt: 'hickory> ', input: sink ?? input, output, terminal, useGlobal: false });
  if (sink !== undefined) feedInOrder(input, repl, sink);
  Object.assign(repl.context, scope);
  repl.on('exit', () => {
    void app.close().then(() => process.exit(0));
  });
  return repl;
}
