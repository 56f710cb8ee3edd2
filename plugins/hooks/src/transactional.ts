import { refuseLegacyDecorator } from '@hickory/dispatch/kit';
import { hooksError } from './errors.ts';

/** Options of {@link transactional}. */
export interface TransactionalOptions {
  /**
   * `true` (the default): a redirect is a success and commits, as a redirect after a POST keeps
   * what the POST did. `false`: a redirect rolls back (Pecan's `ignore_redirects=False`).
   */
  readonly ignore_redirects?: boolean;
}

const forced = new WeakMap<Function, TransactionalOptions>();
const commitActions = new WeakMap<Function, Array<() => unknown>>();
const rollbackActions = new WeakMap<Function, Array<() => unknown>>();

type Decorator = <T extends Function>(target: T, context?: ClassDecoratorContext | ClassMethodDecoratorContext) => T;

/**
 * Marks a controller method, or a whole controller class, as transactional: under a
 * `TransactionHook`, its GET and HEAD requests run in a read-write transaction too (other
 * methods always do). With `{ ignore_redirects: false }` a redirect it answers rolls back.
 * Plain JavaScript: `transactional()(Class)` or `transactional()(fn)`.
 *
 * @example
 * ```ts
 * class Reports {
 *   @transactional() @expose() refresh() { cache.rebuild(); return 'rebuilt'; } // a GET that writes
 *   @transactional({ ignore_redirects: false }) @expose() preview() { draft.save(); return redirect('/drafts/'); } // rolled back
 * }
 * ```
 */
export function transactional(options: TransactionalOptions = {}): Decorator {
  if (typeof options !== 'object' || options === null || (options.ignore_redirects !== undefined && typeof options.ignore_redirects !== 'boolean')) {
    throw hooksError('HICKORY_ERR_HOOKS_TRANSACTION_DECORATOR', 'transactional(options)', 'takes { ignore_redirects?: boolean }');
  }
  const settled: TransactionalOptions = Object.freeze({ ignore_redirects: options.ignore_redirects ?? true });
  return (target, context) => {
    checkTarget('transactional()', target, context, true);
    forced.set(target, settled);
    return target;
  };
}

/**
 * Runs `action` after the transaction of a request handled by this method was committed
 * (never after a rollback). Several may be stacked; they run in the order written.
 *
 * @example
 * ```ts
 * @after_commit(() => mailer.flush()) @expose('json') post(name: string) { return books.create(name); }
 * ```
 */
export function after_commit(action: () => unknown): Decorator {
  return actionDecorator('after_commit(fn)', commitActions, action);
}

/**
 * Runs `action` after the transaction of a request handled by this method was rolled back.
 *
 * @example
 * ```ts
 * @after_rollback(() => metrics.count('write-failed')) @expose('json') post(name: string) { … }
 * ```
 */
export function after_rollback(action: () => unknown): Decorator {
  return actionDecorator('after_rollback(fn)', rollbackActions, action);
}

function actionDecorator(name: string, registry: WeakMap<Function, Array<() => unknown>>, action: () => unknown): Decorator {
  if (typeof action !== 'function') throw hooksError('HICKORY_ERR_HOOKS_TRANSACTION_DECORATOR', name, `was given ${typeof action}`);
  return (target, context) => {
    checkTarget(name, target, context, false);
    // Decorators apply bottom-up; unshift keeps the order they are written in.
    const list = registry.get(target) ?? [];
    list.unshift(action);
    registry.set(target, list);
    return target;
  };
}

function checkTarget(name: string, target: unknown, context: ClassDecoratorContext | ClassMethodDecoratorContext | undefined, classToo: boolean): void {
  refuseLegacyDecorator(name.replace(/\(.*$/, ''), target, context);
  if (typeof target !== 'function') throw hooksError('HICKORY_ERR_HOOKS_TRANSACTION_DECORATOR', name, `was applied to ${typeof target}`);
  if (context !== undefined && context.kind !== 'method' && !(classToo && context.kind === 'class')) {
    throw hooksError('HICKORY_ERR_HOOKS_TRANSACTION_DECORATOR', name, `was applied to a ${context.kind}`);
  }
}

/**
 * True when `handler` or the class of `controller` (or a base class) is `@transactional()`.
 *
 * @example
 * ```ts
 * isTransactional(Reports.prototype.refresh, reports); // true
 * ```
 */
export function isTransactional(handler: Function | undefined, controller: object | undefined): boolean {
  return transactionalOptions(handler, controller) !== undefined;
}

/**
 * The {@link transactional} options in force for `handler` on `controller` (the method's own, else
 * its class's or a base class's), or `undefined` when neither is transactional.
 *
 * @example
 * ```ts
 * transactionalOptions(Reports.prototype.preview, reports); // { ignore_redirects: false }
 * ```
 */
export function transactionalOptions(handler: Function | undefined, controller: object | undefined): TransactionalOptions | undefined {
  const own = handler === undefined ? undefined : forced.get(handler);
  if (own !== undefined) return own;
  for (let proto = controller === undefined ? null : Object.getPrototypeOf(controller); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const ofClass = forced.get(proto.constructor as Function);
    if (ofClass !== undefined) return ofClass;
  }
  return undefined;
}

/**
 * The `after_commit` or `after_rollback` actions of a handler, in the order written.
 *
 * @example
 * ```ts
 * for (const action of outcomeActions(handler, 'commit')) await action();
 * ```
 */
export function outcomeActions(handler: Function | undefined, outcome: 'commit' | 'rollback'): ReadonlyArray<() => unknown> {
  if (handler === undefined) return NONE;
  return (outcome === 'commit' ? commitActions : rollbackActions).get(handler) ?? NONE;
}

const NONE: ReadonlyArray<() => unknown> = Object.freeze([]);
