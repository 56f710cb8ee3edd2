import { HTTPError, type EndOutcome, type Request } from '@hickory/core';
import { currentExchange, isThenable, requestEnded } from '@hickory/core/kit';
import { describeValue, handlerCallOf } from '@hickory/dispatch/kit';
import { hooksError } from './errors.ts';
import { Hook, type HookState } from './hook.ts';
import { hookStateOf } from './request-hooks.ts';
import { outcomeActions, transactionalOptions } from './transactional.ts';

/**
 * What `commit`, `rollback` and `clear` receive: the request's hook state and its transaction
 * (what `start` or `start_ro` returned; `undefined` when `start` failed).
 */
export interface TransactionState<T> extends HookState {
  /** The request's transaction, as `start`/`start_ro` returned (or resolved to) it. */
  readonly transaction: T | undefined;
}

/**
 * The functions a {@link TransactionHook} calls; each may return a promise. `start`/`start_ro`
 * return the request's transaction (a connection, a pooled client, a query builder's
 * transaction): it is that request's alone. Functions that take nothing (Pecan's) work too.
 */
export interface TransactionFunctions<T = unknown> {
  /** Begins a read-write transaction: its value is the request's transaction. */
  start(state: HookState): T | Promise<T>;
  /** Begins a read-only one (GET and HEAD). */
  start_ro(state: HookState): T | Promise<T>;
  /** Commits the read-write transaction. */
  commit(state: TransactionState<T>): unknown;
  /** Rolls it back. */
  rollback(state: TransactionState<T>): unknown;
  /** Always last, once: releases what `start`/`start_ro` took (ends a read-only transaction too). */
  clear(state: TransactionState<T>): unknown;
}

// One request's transaction, kept on the request itself (under this hook's own symbol): an
// internal redirect routes the request again and must find it.
interface Open<T> {
  readonly request: Request;
  writable: boolean;
  /** `start`'s promise while it runs (an asynchronous start). */
  starting: Promise<void> | undefined;
  began: boolean;
  transaction: T | undefined;
  /** Something threw that is not a redirect (an `on_error` saw it): never committed. */
  failed: boolean;
  handler: Function | undefined;
  controller: object | undefined;
}

const READ_ONLY = new Set(['GET', 'HEAD']);

/**
 * Pecan's TransactionHook: one transaction per request, the request's own whatever else is in
 * flight. It begins in `before` — once routing, the security checks and the request body are
 * done, so a client still sending holds nothing: GET and HEAD with `start_ro`, other methods (and
 * a `@transactional()` GET) with `start`. What those return is the request's transaction, given
 * back to `commit`/`rollback`/`clear` (as `state.transaction`) and to handlers and other hooks by
 * {@link TransactionHook.transaction}. It ends once the response is final, before any byte of it is
 * written, a streamed body included (`request.beforeEnd`), after every `after` hook: a 2xx/3xx being delivered commits, anything else
 * (4xx/5xx, a client that left, a streamed body that failed) rolls back; a read-only transaction
 * only gets `clear`. Then the handler's `after_commit`/`after_rollback` actions, and `clear`,
 * exactly once, whatever another hook did. A `commit` that throws makes the response a 500 (a
 * rollback is tried); a failing action or `clear` is logged.
 *
 * @example
 * ```ts
 * const db = new Kysely<Schema>({ dialect });
 * export const tx = new TransactionHook({
 *   start: () => db.startTransaction().execute(),
 *   start_ro: () => db.startTransaction().setAccessMode('read only').execute(),
 *   commit: ({ transaction }) => transaction?.commit().execute(),
 *   rollback: ({ transaction }) => transaction?.rollback().execute(),
 *   clear: ({ transaction }) => (transaction?.isCommitted || transaction?.isRolledBack ? undefined : transaction?.rollback().execute()),
 * });
 * createApp({ root, hooks: [tx] });
 * // in a handler: await tx.transaction().selectFrom('books').selectAll().execute();
 * ```
 */
export class TransactionHook<T = unknown> extends Hook {
  readonly #fns: TransactionFunctions<T>;
  readonly #slot = Symbol('hickory.transaction');

  constructor(fns: TransactionFunctions<T>) {
    super();
    const missing = ['start', 'start_ro', 'commit', 'rollback', 'clear'].filter((name) => typeof (fns as unknown as Record<string, unknown> | undefined)?.[name] !== 'function');
    if (typeof fns !== 'object' || fns === null || missing.length > 0) {
      throw hooksError('HICKORY_ERR_HOOKS_TRANSACTION_ARGS', typeof fns === 'object' && fns !== null ? `missing ${missing.join(', ')}` : `got ${describeValue(fns)}`);
    }
    this.#fns = fns;
  }

  /**
   * The transaction of `request` (by default the current one): what `start`/`start_ro` gave,
   * from this hook's `before` until the response is final. Throws `HICKORY_ERR_HOOKS_NO_TRANSACTION`
   * when none is open (the hook is not in force for the route, or it was asked too early), and
   * `HICKORY_ERR_HOOKS_TRANSACTION_ENDED` once the request has ended: answered 503 past
   * `handler_timeout` or left by its client while the handler still ran, or its response final and
   * the transaction being committed or rolled back (a streamed body is read after that).
   *
   * @example
   * ```ts
   * @expose('json') async get_all() { return tx.transaction().selectFrom('books').selectAll().execute(); }
   * ```
   */
  transaction(request?: Request): T {
    const target = request ?? currentExchange()?.request;
    // Never a transaction that is over, or whose pooled connection went on to another request.
    if (target !== undefined && requestEnded(target) && this.#openOf(target) !== undefined) throw hooksError('HICKORY_ERR_HOOKS_TRANSACTION_ENDED', `${target.method} ${target.path}`);
    const open = target === undefined ? undefined : this.#openOf(target);
    if (open === undefined || !open.began) throw hooksError('HICKORY_ERR_HOOKS_NO_TRANSACTION', target === undefined ? 'this call (made outside a request)' : `${target.method} ${target.path}`);
    return open.transaction as T;
  }

  override before(state: HookState): Promise<void> | undefined {
    const { request } = state;
    const controller = handlerCallOf(request.lookup)?.controller;
    const writable = !READ_ONLY.has(request.method) || transactionalOptions(state.controller, controller) !== undefined;
    const known = this.#openOf(request);
    if (known !== undefined) {
      // An internal redirect routed the request again: it goes on in the same transaction.
      known.handler = state.controller;
      known.controller = controller;
      if (!writable || known.writable) return undefined;
      return this.#reopenWritable(known, state);
    }
    const open: Open<T> = { request, writable, starting: undefined, began: false, transaction: undefined, failed: false, handler: state.controller, controller };
    (request as unknown as Record<symbol, Open<T>>)[this.#slot] = open;
    // Before `start`: whatever happens from here on, `clear` runs once.
    request.beforeEnd((outcome) => this.#end(open, outcome, state.logger));
    return this.#begin(open, state);
  }

  override on_error(state: HookState, error: unknown): undefined {
    const open = this.#openOf(state.request);
    // A redirect is not a failure: what led to it is kept (unless `ignore_redirects: false`).
    if (open !== undefined && !(error instanceof HTTPError && error.status < 400)) open.failed = true;
    return undefined;
  }

  #openOf(request: Request): Open<T> | undefined {
    return (request as unknown as Record<symbol, Open<T> | undefined>)[this.#slot];
  }

  #begin(open: Open<T>, state: HookState): Promise<void> | undefined {
    const started = open.writable ? this.#fns.start(state) : this.#fns.start_ro(state);
    if (!isThenable(started)) {
      open.transaction = started;
      open.began = true;
      return undefined;
    }
    return (open.starting = Promise.resolve(started).then((transaction) => {
      open.transaction = transaction;
      open.began = true;
    }));
  }

  // A read-only transaction cannot serve the `@transactional()` handler an internal redirect
  // reached: it is cleared and a read-write one begins, as Pecan does.
  async #reopenWritable(open: Open<T>, state: HookState): Promise<void> {
    const readOnly = this.#stateOf(open);
    open.began = false;
    open.starting = undefined;
    open.transaction = undefined;
    await this.#fns.clear(readOnly);
    open.writable = true;
    await this.#begin(open, state);
  }

  async #end(open: Open<T>, outcome: EndOutcome, logger: HookState['logger']): Promise<void> {
    if (!open.began && open.starting !== undefined) {
      // `start` is still running (the request was answered meanwhile, past handler_timeout): what
      // it takes is given back once it has it, without holding up the response.
      const late = open.starting.then(() => this.#finish(open, false, logger));
      void late.catch((error: unknown) => logger.error('a transaction begun after its request was answered could not be given back', error));
      return;
    }
    await this.#finish(open, this.#keeps(open, outcome), logger);
  }

  #keeps(open: Open<T>, outcome: EndOutcome): boolean {
    if (!outcome.ok || open.failed) return false;
    const redirect = outcome.status >= 300 && outcome.status < 400;
    return !redirect || transactionalOptions(open.handler, open.controller)?.ignore_redirects !== false;
  }

  // commit or rollback (a read-write transaction that began), the outcome's actions, then clear.
  // Only a failed commit is the request's failure; the rest is logged.
  async #finish(open: Open<T>, keep: boolean, logger: HookState['logger']): Promise<void> {
    const state = this.#stateOf(open);
    let commitFailure: unknown;
    try {
      if (open.began && open.writable) {
        if (keep) {
          try {
            await this.#fns.commit(state);
          } catch (error) {
            commitFailure = error;
            await this.#quietly(() => this.#fns.rollback(state), 'rollback after a failed commit', logger);
          }
        } else {
          await this.#quietly(() => this.#fns.rollback(state), 'rollback', logger);
        }
        const outcome = commitFailure === undefined && keep ? 'commit' : 'rollback';
        for (const action of outcomeActions(open.handler, outcome)) await this.#quietly(action, `an after_${outcome} action`, logger);
      }
    } finally {
      await this.#quietly(() => this.#fns.clear(state), 'clear', logger);
    }
    if (commitFailure !== undefined) throw commitFailure;
  }

  async #quietly(fn: () => unknown, what: string, logger: HookState['logger']): Promise<void> {
    try {
      await fn();
    } catch (error) {
      logger.error(`TransactionHook: ${what} failed`, error);
    }
  }

  // The hook state as it stands, with the transaction (a copy: hooks keep their own state object).
  #stateOf(open: Open<T>): TransactionState<T> {
    return { ...(hookStateOf(open.request) as HookState), transaction: open.transaction };
  }
}
