/**
 * The only place that reads what tapable keeps to itself (its hook maps' entries, a hook's
 * argument names): a tapable upgrade that moves them breaks here, and only here.
 */
import type { HookMap } from 'tapable';

/**
 * The hooks a `HookMap` has made so far, by key (tapable has no public way to list them).
 *
 * @example
 * ```ts
 * for (const [engine, hook] of hookMapEntries(kernel.hooks.render)) if (hook.isUsed()) engines.push(engine);
 * ```
 */
export function hookMapEntries<H>(map: HookMap<H>): ReadonlyMap<unknown, H> {
  return (map as unknown as { _map: Map<unknown, H> })._map;
}

/**
 * How many arguments a hook passes its taps (the names given to its constructor).
 *
 * @example
 * ```ts
 * argumentCount(new AsyncSeriesBailHook(['request', 'response'])); // 2
 * ```
 */
export function argumentCount(hook: object): number {
  return ((hook as { _args?: unknown[] })._args ?? []).length;
}
