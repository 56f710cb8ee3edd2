import type { Logger, Request, Response } from '@hickory/core';

/**
 * What a hook method receives: the request, its response, and — once routed — the handler and
 * its arguments. One object per request (a new one when an internal redirect routes again).
 *
 * @example
 * ```ts
 * class Audit extends Hook {
 *   override before(state: HookState) { log(state.request.path, state.controller?.name, state.arguments); }
 * }
 * ```
 */
export interface HookState {
  /** The request. */
  readonly request: Request;
  /** The response as it stands (in `after`: the one about to be sent). */
  response: Response;
  /** The handler routing chose (the exposed method, or the `when()` handler), from `before` on. */
  controller: Function | undefined;
  /** The arguments the handler receives (read-only), from `before` on. */
  arguments: readonly unknown[] | undefined;
  /** The hooks in force for the request: the application's, then (from `before` on) the controllers'. */
  hooks: readonly Hook[];
  /** What was thrown, once something was (an `abort()` too). */
  error: unknown;
  /** The kernel's logger, for hooks that report (`RequestViewerHook`). */
  readonly logger: Logger;
}

/**
 * A Pecan-style hook. Override what you need; each method may be async. `priority`: lower runs
 * first (default 100); `after` and `on_error` run in reverse order.
 *
 * - `on_route(state)`: before routing (application hooks only).
 * - `before(state)`: routed, the body read; `state.controller` and `state.arguments` are known.
 * - `after(state)`: after the handler, and after an error response too; may change `state.response`.
 * - `on_error(state, error)`: something threw (an `abort()`, a redirect, a bug); may return a
 *   `Response` to send instead.
 *
 * @example
 * ```ts
 * class TimingHook extends Hook {
 *   override priority = 50;
 *   override on_route(state: HookState) { started.set(state.request, performance.now()); }
 *   override after(state: HookState) { state.response.headerMap.set('Server-Timing', `app;dur=${performance.now() - started.get(state.request)!}`); }
 * }
 * createApp({ root, hooks: [new TimingHook()] });
 * ```
 */
export class Hook {
  /** Lower runs first; the default is 100, as in Pecan. */
  priority = 100;
  on_route?(state: HookState): unknown;
  before?(state: HookState): unknown;
  after?(state: HookState): unknown;
  on_error?(state: HookState, error: unknown): unknown;
}

/** The hook methods, in the order a request meets them. */
export const HOOK_METHODS = ['on_route', 'before', 'after', 'on_error'] as const;

/** One of {@link HOOK_METHODS}. */
export type HookMethod = (typeof HOOK_METHODS)[number];
