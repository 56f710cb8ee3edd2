/**
 * Runs an `AsyncSeriesBailHook` (or an `AsyncSeriesHook`) the way tapable does, but without a
 * promise when no tap needs one: the kernel calls its request hooks through this on every request.
 */
import type { AsyncSeriesBailHook, AsyncSeriesHook } from 'tapable';
import { argumentCount } from './tapable-internals.ts';

/** Calls a hook's taps in order; the first answer that is not `undefined` wins (maybe a promise). */
export type BailRunner = (a: unknown, b: unknown, c?: unknown) => unknown;

interface RawTap {
  readonly type: 'sync' | 'async' | 'promise';
  readonly fn: Function;
  readonly name: string;
  readonly context?: boolean;
  readonly direct?: Function;
  readonly active?: () => boolean;
}

interface Step {
  readonly fn: Function;
  /** 'value': sync tap; 'promise': must give a thenable; 'direct': a value or a thenable. */
  readonly kind: 'value' | 'promise' | 'direct';
  readonly name: string;
}

/**
 * A runner for the hook as tapped now (call after the hooks are sealed), or `undefined` when it
 * has no taps. Interceptors, callback-style taps or `context` taps fall back to `hook.promise()`.
 *
 * @example
 * ```ts
 * const route = bailRunner(kernel.hooks.route);
 * const lookup = route && (await route(request, response));
 * ```
 */
export function bailRunner(hook: AsyncSeriesBailHook<any, any>): BailRunner | undefined {
  const plan = planOf(hook);
  if (plan === undefined || typeof plan === 'function') return plan;
  const { steps, arity } = plan;
  if (steps.length === 1 && steps[0]!.kind !== 'promise') {
    // Called with exactly the hook's arguments, as tapable calls it.
    const fn = steps[0]!.fn;
    return arity === 2 ? (a, b) => fn(a, b) : (a, b, c) => fn(a, b, c);
  }
  return (a, b, c) => runFrom(steps, arity, 0, a, b, c);
}

/**
 * A runner for an `AsyncSeriesHook` (taps' values are ignored; each runs after the previous one
 * settled), without a promise when no tap needs one; `undefined` when it has no taps. A tap that
 * throws stops the series.
 *
 * @example
 * ```ts
 * const beforeSend = seriesRunner(kernel.hooks.beforeSend);
 * const ran = beforeSend?.(request, response); // undefined, or a promise
 * ```
 */
export function seriesRunner(hook: AsyncSeriesHook<any>): BailRunner | undefined {
  const plan = planOf(hook);
  if (plan === undefined || typeof plan === 'function') return plan;
  const { steps, arity } = plan;
  return (a, b, c) => seriesFrom(steps, arity, 0, a, b, c);
}

// The taps as steps to call directly, or tapable's own `promise()` when a tap or an interceptor
// needs what only tapable does; `undefined` without taps.
function planOf(hook: AsyncSeriesBailHook<any, any> | AsyncSeriesHook<any>): { steps: Step[]; arity: number } | BailRunner | undefined {
  // A direct tap whose plugin is off (see `tapDirect`'s `active`) is left out.
  const taps = (hook.taps as unknown as RawTap[]).filter((tap) => tap.active === undefined || tap.active());
  if (taps.length === 0) return undefined;
  if (hook.interceptors.length > 0 || taps.some((tap) => tap.context || (tap.type === 'async' && !tap.direct))) {
    return (a, b, c) => (hook.promise as (...args: unknown[]) => Promise<unknown>)(a, b, c);
  }
  const arity = argumentCount(hook);
  const steps: Step[] = taps.map((tap) =>
    tap.direct ? { fn: tap.direct, kind: 'direct', name: tap.name } : { fn: tap.fn, kind: tap.type === 'promise' ? 'promise' : 'value', name: tap.name },
  );
  return { steps, arity };
}

function seriesFrom(steps: readonly Step[], arity: number, from: number, a: unknown, b: unknown, c: unknown): unknown {
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!;
    const result: unknown = arity === 2 ? step.fn(a, b) : step.fn(a, b, c);
    if (step.kind !== 'value' && isThenable(result)) return Promise.resolve(result).then(() => seriesFrom(steps, arity, i + 1, a, b, c));
    if (step.kind === 'promise') throw new Error(`Tap function (tapPromise) did not return promise (returned ${String(result)})`);
  }
  return undefined;
}

function runFrom(steps: readonly Step[], arity: number, from: number, a: unknown, b: unknown, c: unknown): unknown {
  for (let i = from; i < steps.length; i++) {
    const step = steps[i]!;
    const result: unknown = arity === 2 ? step.fn(a, b) : step.fn(a, b, c);
    if (step.kind === 'value') {
      // A sync tap's value ends the series as it is (a returned promise included), as in tapable.
      if (result !== undefined) return result;
      continue;
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then((value) => (value !== undefined ? value : runFrom(steps, arity, i + 1, a, b, c)));
    }
    if (step.kind === 'promise') {
      throw new Error(`Tap function (tapPromise) did not return promise (returned ${String(result)})`);
    }
    if (result !== undefined) return result;
  }
  return undefined;
}

/**
 * True for a value `await` would wait on (an object or function with a callable `then`).
 *
 * @example
 * ```ts
 * isThenable(Promise.resolve(1)); // true
 * ```
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if (value instanceof Promise) return true;
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
