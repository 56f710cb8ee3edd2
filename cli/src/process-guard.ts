import type { Kernel, Logger } from '@hickory/core';

/** What `hickory serve` does after an uncaught exception. */
export type AfterUncaught =
  /** Log it and keep serving: a single process has nobody to replace it. */
  | 'keep-serving'
  /** Log it, close the app gracefully and exit 1: a supervised worker is replaced by a clean one. */
  | 'replace';

/**
 * Installs `hickory serve`'s process-level handlers (they belong to the command, not to the kernel
 * a library user embeds). A promise rejected with nobody listening — a handler's fire-and-forget
 * work — is logged and the server keeps serving. An uncaught exception is logged loudly too; then
 * a single process keeps serving (the request that caused it already has its answer or lost its
 * connection), while a worker closes gracefully and exits so that its supervisor starts a fresh
 * one, since Node cannot promise the process is sound after one.
 *
 * @example
 * ```ts
 * guardProcess(app, consoleLogger, cluster.isWorker ? 'replace' : 'keep-serving');
 * ```
 */
export function guardProcess(app: Kernel, logger: Logger, afterUncaught: AfterUncaught): void {
  process.on('unhandledRejection', (reason) => {
    logger.error('a promise was rejected and nothing handled it (a missing await or .catch?); still serving', reason);
  });
  let replacing = false;
  process.on('uncaughtException', (error) => {
    if (afterUncaught === 'keep-serving') {
      logger.error('an exception was thrown and nothing caught it; still serving, but this process may be in a bad state: run with --workers to have it replaced', error);
      return;
    }
    logger.error('an exception was thrown and nothing caught it; this worker closes and a new one takes its place', error);
    if (replacing) return;
    replacing = true;
    void app.close().finally(() => process.exit(1));
  });
}
