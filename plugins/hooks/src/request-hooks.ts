import type { Logger, Request, Response } from '@hickory/core';
import type { Hook, HookState } from './hook.ts';

/** Where a request is in the hooks' life: `after` ran (or runs) once it is `done`. */
export type HookPhase = 'routing' | 'handling' | 'failed' | 'done';

/**
 * One request's hook state: what hook methods receive, plus the phase the plugin tracks so that
 * an error page's internal routing and `after`'s own failures do not run hooks twice.
 *
 * @example
 * ```ts
 * const state = new RequestHooks(request, response, appHooks, kernel.logger);
 * ```
 */
export class RequestHooks implements HookState {
  controller: Function | undefined = undefined;
  arguments: readonly unknown[] | undefined = undefined;
  error: unknown = undefined;
  phase: HookPhase = 'routing';
  constructor(
    readonly request: Request,
    public response: Response,
    public hooks: readonly Hook[],
    readonly logger: Logger,
  ) {}
}

// On the request itself, not in a WeakMap keyed by requests: that costs the garbage collector
// more than the state it holds.
const STATE = Symbol('hickory.hookState');

interface WithState {
  [STATE]?: RequestHooks;
}

/**
 * Starts (or, after an internal redirect, restarts) the hook state of `request`.
 *
 * @example
 * ```ts
 * const state = startRequest(request, response, appHooks, kernel.logger);
 * ```
 */
export function startRequest(request: Request, response: Response, hooks: readonly Hook[], logger: Logger): RequestHooks {
  const state = new RequestHooks(request, response, hooks, logger);
  (request as WithState)[STATE] = state;
  return state;
}

/**
 * The hook state of `request`, if its hooks started.
 *
 * @example
 * ```ts
 * hookStateOf(request)?.controller;
 * ```
 */
export function hookStateOf(request: Request): RequestHooks | undefined {
  return (request as WithState)[STATE];
}
