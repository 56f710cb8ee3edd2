import { HTTPError, type Request } from '@hickory/core';
import { describeValue, handlerCallOf } from '@hickory/dispatch/kit';
import { hooksError } from './errors.ts';
import { Hook, type HookState } from './hook.ts';
import { isTransactional, outcomeActions } from './transactional.ts';

/** The functions a {@link TransactionHook} calls; each may return a promise. */
export interface TransactionFunctions {
  /** Begins a read-write transaction. */
  start(): unknown;
  /** Begins a read-only one (GET and HEAD). */
  start_ro(): unknown;
  /** Commits the read-write transaction. */
  commit(): unknown;
  /** Rolls it back. */
  rollback(): unknown;
  /** Always last: releases what `start`/`start_ro` took (a session, a connection). */
  clear(): unknown;
}

// What one request's transaction is doing.
interface Open {
  transactional: boolean;
  failed: boolean;
}

const READ_ONLY = new Set(['GET', 'HEAD']);

/**
 * Pecan's TransactionHook: a transaction per request. GET and HEAD run `start_ro()`, other
 * methods `start()` (in `on_route`); a GET routed to a `@transactional()` handler or controller
 * is switched to `start()` in `before`. After the handler: `commit()` when it succeeded (2xx, and
 * 3xx: redirects included), `rollback()` when it threw or the response is a 4xx/5xx; then the
 * handler's `after_commit`/`after_rollback` actions; `clear()` always last, even when commit
 * failed. An internal redirect continues the same transaction.
 *
 * @example
 * ```ts
 * const db = new Database('books.sqlite');
 * createApp({ root, hooks: [new TransactionHook({
 *   start: () => db.exec('BEGIN IMMEDIATE'), start_ro: () => db.exec('BEGIN'),
 *   commit: () => db.exec('COMMIT'), rollback: () => db.exec('ROLLBACK'),
 *   clear: () => { if (db.inTransaction) db.exec('ROLLBACK'); },
 * })] });
 * ```
 */
export class TransactionHook extends Hook {
  readonly #fns: TransactionFunctions;
  readonly #open = new WeakMap<Request, Open>();

  constructor(fns: TransactionFunctions) {
    super();
    const missing = ['start', 'start_ro', 'commit', 'rollback', 'clear'].filter((name) => typeof (fns as unknown as Record<string, unknown> | undefined)?.[name] !== 'function');
    if (typeof fns !== 'object' || fns === null || missing.length > 0) {
      throw hooksError('HICKORY_ERR_HOOKS_TRANSACTION_ARGS', typeof fns === 'object' && fns !== null ? `missing ${missing.join(', ')}` : `got ${describeValue(fns)}`);
    }
    this.#fns = fns;
  }

  override on_route(state: HookState): unknown {
    // A second routing of the same request (an internal redirect) keeps its transaction.
    if (this.#open.has(state.request)) return undefined;
    const transactional = !READ_ONLY.has(state.request.method);
    this.#open.set(state.request, { transactional, failed: false });
    return transactional ? this.#fns.start() : this.#fns.start_ro();
  }

  override async before(state: HookState): Promise<void> {
    const open = this.#open.get(state.request);
    if (open?.transactional === true) return;
    const forced = isTransactional(state.controller, handlerCallOf(state.request.lookup)?.controller);
    if (open === undefined) {
      // A controller's hook (no on_route ran): the transaction begins here.
      const transactional = forced || !READ_ONLY.has(state.request.method);
      this.#open.set(state.request, { transactional, failed: false });
      await (transactional ? this.#fns.start() : this.#fns.start_ro());
      return;
    }
    if (!forced) return;
    open.transactional = true;
    await this.#fns.clear();
    await this.#fns.start();
  }

  override on_error(state: HookState, error: unknown): undefined {
    const open = this.#open.get(state.request);
    // A redirect is a success: what led to it is kept.
    if (open !== undefined && !(error instanceof HTTPError && error.status < 400)) open.failed = true;
    return undefined;
  }

  override async after(state: HookState): Promise<void> {
    const open = this.#open.get(state.request);
    this.#open.delete(state.request);
    try {
      if (open?.transactional) {
        const outcome = open.failed || state.response.status >= 400 ? 'rollback' : 'commit';
        await (outcome === 'commit' ? this.#fns.commit() : this.#fns.rollback());
        for (const action of outcomeActions(state.controller, outcome)) await action();
      }
    } finally {
      await this.#fns.clear();
    }
  }
}
