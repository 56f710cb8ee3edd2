import type { Request } from '@hickory/core';
import { refuseLegacyDecorator } from '@hickory/dispatch/kit';
import { rateLimitError } from './errors.ts';
import { checkPositiveInteger } from './options.ts';

/** Options of {@link rate_limit}. */
export interface HandlerLimitOptions {
  /** Requests allowed per client in each window. */
  readonly points: number;
  /** The window, in seconds. */
  readonly duration: number;
  /** The client a request counts against (default: the plugin's `key`, else the client's address). */
  readonly key?: (request: Request) => string;
  /** The policy's name in the `RateLimit-Policy`/`RateLimit` fields (default: the method's name). */
  readonly name?: string;
}

/** A handler's limit, as declared. */
export interface HandlerLimit extends HandlerLimitOptions {
  readonly name: string;
}

// Keyed by the method itself (as dispatch keeps its exposures): `@expose` returns the function
// unchanged, so the handler a lookup calls is the one decorated, in whichever order they stack.
const declared = new WeakMap<Function, HandlerLimit>();

/**
 * Limits one handler: past `points` requests per client in `duration` seconds, 429 with
 * `Retry-After`, before its body is read or it runs (checked by `rateLimitPlugin` once routing
 * found it, so the plugin must be in use). Stacks with `@expose` in either order; on top of the
 * app-wide limit, if any. Plain JavaScript: `rate_limit({ points, duration })(fn)`.
 *
 * @example
 * ```ts
 * class Account {
 *   @rate_limit({ points: 5, duration: 60 }) @expose('json') login(user: string, password: string) { … }
 * }
 * ```
 */
export function rate_limit(options: HandlerLimitOptions): <F extends Function>(value: F, context?: ClassMethodDecoratorContext) => F {
  if (typeof options !== 'object' || options === null) throw rateLimitError('HICKORY_ERR_RATE_LIMIT_DECORATOR', 'takes { points, duration } (duration in seconds)');
  const fail = (name: string, problem: string): never => {
    throw rateLimitError('HICKORY_ERR_RATE_LIMIT_DECORATOR', `option "${name}" ${problem}`);
  };
  checkPositiveInteger('points', options.points, fail);
  checkPositiveInteger('duration', options.duration, fail);
  if (options.key !== undefined && typeof options.key !== 'function') fail('key', 'must be a function (request) => string');
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) fail('name', 'must be a non-empty string');
  return (value, context) => {
    refuseLegacyDecorator('rate_limit', value, context);
    if (typeof value !== 'function') throw rateLimitError('HICKORY_ERR_RATE_LIMIT_DECORATOR', `was applied to ${typeof value}, not a method`);
    if (context !== undefined && context.kind !== 'method') throw rateLimitError('HICKORY_ERR_RATE_LIMIT_DECORATOR', `was applied to a ${String((context as { kind?: unknown }).kind)}, not a method`);
    const name = options.name ?? (context === undefined ? value.name : String(context.name));
    declared.set(value, Object.freeze({ ...options, name: name || 'handler' }));
    return value;
  };
}

/**
 * The limit `@rate_limit` declared on `handler`, if any.
 *
 * @example
 * ```ts
 * handlerLimit(Account.prototype.login); // { points: 5, duration: 60, name: 'login' }
 * ```
 */
export function handlerLimit(handler: Function | undefined): HandlerLimit | undefined {
  return handler === undefined ? undefined : declared.get(handler);
}
