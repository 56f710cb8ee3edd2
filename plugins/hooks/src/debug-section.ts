import type { DebugSection, Request } from '@hickory/core';
import { hookStateOf } from './request-hooks.ts';

/**
 * The hooks' part of the debug page (`debug: true`) of a request that failed: the hooks in force
 * for it, in the order their `before` methods ran, and how far the request got.
 *
 * @example
 * ```ts
 * kernel.addDebugSection(hooksRunSection);
 * ```
 */
export function hooksRunSection(request: Request): DebugSection | undefined {
  const state = hookStateOf(request);
  if (state === undefined) return undefined;
  return {
    title: 'Hooks run',
    rows: [
      ['hooks', state.hooks.map((hook) => hook.constructor.name).join(', ') || '(none)'],
      ['phase reached', state.phase],
    ],
  };
}
