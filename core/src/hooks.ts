import { AsyncSeriesBailHook, AsyncSeriesHook, HookMap, SyncHook } from 'tapable';
import { coreError } from './errors.ts';
import { hookMapEntries } from './tapable-internals.ts';
import type { HTTPError } from './http-error.ts';
import type { Lookup, Request } from './request.ts';
import type { Response } from './response.ts';
import type { Variables } from './variables.ts';

/**
 * One template to render (the argument of a `render` tap).
 *
 * @example
 * ```ts
 * const job: RenderJob = { template: 'books/list.ejs', engine: 'ejs', namespace: { books } };
 * ```
 */
export interface RenderJob {
  /** The template path, relative to `template_path`, without an `engine:` prefix. */
  readonly template: string;
  /** The key the renderer was chosen by: the engine prefix, the extension, or `default_renderer`. */
  readonly engine: string;
  /** The data for the template (never engine options). */
  readonly namespace: Record<string, unknown>;
}

/** Facts about a finished response, for `onResponse` taps (logging, metrics). */
export interface ResponseInfo {
  /** The status sent. */
  readonly status: number;
  /** Milliseconds from the request's arrival to the end of the response. */
  readonly duration: number;
  /** False when the client went away before the response was complete. */
  readonly completed: boolean;
}

/**
 * Creates the hooks of one kernel: a frozen object, made once per kernel, tapped by plugins
 * inside `apply()` (tapping after `ready()` throws). A hook with no taps is skipped per request.
 *
 * @example
 * ```ts
 * kernel.hooks.beforeRoute.tapPromise('health', async (request) =>
 *   request.path === '/healthz' ? 'ok' : undefined);
 * ```
 */
export function createHooks<K>() {
  return Object.freeze({
    /**
     * `AsyncSeriesBailHook<[request, response]>`, before routing. A tap may rewrite the request
     * (`request.rewrite(url)`), set headers, throw an `HTTPError`, or answer the request itself by
     * returning a value (a `Response`, a string, bytes, or an object sent as JSON).
     */
    beforeRoute: new AsyncSeriesBailHook<[Request, Response], unknown>(['request', 'response']),
    /**
     * `AsyncSeriesBailHook<[request, response]>`, the routing itself: the first tap that returns a
     * {@link Lookup} wins. No tap, or no lookup → 404. The dispatch plugin taps it.
     */
    route: new AsyncSeriesBailHook<[Request, Response], Lookup | undefined>(['request', 'response']),
    /**
     * `AsyncSeriesBailHook<[lookup, request, response]>`, after a handler was found and before the
     * body is read and the handler runs. A tap may throw (`abort(403)`) or answer by returning a value.
     */
    afterLookup: new AsyncSeriesBailHook<[Lookup, Request, Response], unknown>(['lookup', 'request', 'response']),
    /**
     * `AsyncSeriesBailHook<[lookup, request, response]>`, once the body is read (or ignored) and
     * right before `lookup.handle()` runs the handler: what `afterLookup` cannot see yet (the
     * body, mapped arguments) is there. A tap may throw or answer by returning a value; the
     * handler then does not run.
     */
    beforeHandle: new AsyncSeriesBailHook<[Lookup, Request, Response], unknown>(['lookup', 'request', 'response']),
    /**
     * `HookMap<AsyncSeriesBailHook<[request]>>` keyed by media type (`multipart/form-data`): a tap
     * consumes `request.raw` and returns the body variables. Media types without a tap are buffered
     * by the kernel (JSON and urlencoded are parsed by the kernel itself).
     */
    parseBody: new HookMap(() => new AsyncSeriesBailHook<[Request], Variables | undefined>(['request'])),
    /**
     * `HookMap<AsyncSeriesBailHook<[job]>>` keyed by engine (`ejs`, `njk`, `hbs`, …): a tap returns
     * the rendered text of {@link RenderJob}. Call it through `kernel.render()`.
     */
    render: new HookMap(() => new AsyncSeriesBailHook<[RenderJob], string | undefined>(['job'])),
    /**
     * `AsyncSeriesBailHook<[error, request, response]>`, for every {@link HTTPError} (abort, 404,
     * redirects). A tap may return a `Response` that replaces the default error response.
     */
    onAbort: new AsyncSeriesBailHook<[HTTPError, Request, Response], Response | undefined>(['error', 'request', 'response']),
    /**
     * `AsyncSeriesBailHook<[error, request, response]>`, for any other error (→ 500). The kernel logs
     * the error; a tap may report it elsewhere and may return a `Response` to send instead.
     */
    onError: new AsyncSeriesBailHook<[unknown, Request, Response], Response | undefined>(['error', 'request', 'response']),
    /**
     * `AsyncSeriesHook<[request, response]>`, once per request when its response is final (the
     * handler's, or the error response, error documents included) and before anything is
     * written. A tap may change the response (status, headers, body); a tap that throws turns it
     * into a 500, logged (the remaining taps do not run). Internal redirects and error documents
     * do not run it a second time.
     */
    beforeSend: new AsyncSeriesHook<[Request, Response]>(['request', 'response']),
    /** `SyncHook<[request, response, info]>`, after the response was sent (or the client left). */
    onResponse: new SyncHook<[Request, Response, ResponseInfo]>(['request', 'response', 'info']),
    /** `AsyncSeriesHook<[kernel]>`, once during `ready()`, after every plugin was applied. */
    ready: new AsyncSeriesHook<[K]>(['kernel']),
    /** `AsyncSeriesHook<[kernel]>`, once during `close()`, after in-flight requests finished. */
    close: new AsyncSeriesHook<[K]>(['kernel']),
  });
}

/**
 * The frozen hooks object of a kernel whose `ready`/`close` taps receive a `K` (see
 * {@link createHooks} for each hook). The kernel's own is `KernelHooks` (`HooksOf<Kernel>`): the
 * kernel type is a parameter so that this file never imports the kernel.
 */
export type HooksOf<K> = ReturnType<typeof createHooks<K>>;

/** The names of the hooks. */
export type HookName = keyof HooksOf<unknown>;

interface Tappable {
  tap: unknown;
  tapAsync?: unknown;
  tapPromise?: unknown;
}

/**
 * Makes every hook refuse new taps (`HICKORY_ERR_TAP_AFTER_READY`): tapable recompiles a hook on
 * each tap, so tapping while requests run would be slow and racy.
 *
 * @example
 * ```ts
 * sealHooks(kernel.hooks); // done by ready()
 * ```
 */
export function sealHooks<K>(hooks: HooksOf<K>): void {
  for (const name of Object.keys(hooks) as HookName[]) {
    const hook = hooks[name];
    if (hook instanceof HookMap) {
      const map = hook as unknown as HookMap<Tappable>;
      // Existing per-key hooks, and any created by a later `.for(key)`.
      for (const inner of hookMapEntries(map).values()) sealOne(inner, name);
      map.intercept({ factory: (_key, created) => sealOne(created, name) });
    } else {
      sealOne(hook as unknown as Tappable, name);
    }
  }
}

function sealOne<T extends Tappable>(hook: T, name: string): T {
  const refuse = () => {
    throw coreError('HICKORY_ERR_TAP_AFTER_READY', name);
  };
  hook.tap = refuse;
  if (hook.tapAsync) hook.tapAsync = refuse;
  if (hook.tapPromise) hook.tapPromise = refuse;
  return hook;
}

/** A tap function that may answer at once or with a promise (see {@link tapDirect}). */
export type DirectTap<A extends unknown[], R> = (...args: A) => R | undefined | Promise<R | undefined>;

/** The {@link DirectTap} type for one of the kernel's bail hooks (or series hooks: no value). */
export type DirectTapOf<H> =
  H extends AsyncSeriesBailHook<infer A extends unknown[], infer R> ? DirectTap<A, R> : H extends AsyncSeriesHook<infer A extends unknown[]> ? DirectTap<A, void> : never;

/**
 * Taps one of the kernel's `AsyncSeriesBailHook`s (`beforeRoute`, `route`, `afterLookup`, …) or
 * `AsyncSeriesHook`s (`beforeSend`) with
 * a function that answers either at once or with a promise. Seen through `hook.promise()` it is an
 * ordinary `tapPromise` tap; the kernel calls it directly, so an answer found without waiting costs
 * no promise and no tick. Like every tap, only inside a plugin's `apply` (before `ready()`).
 *
 * `options.active` is asked once, when the kernel is ready: `false` leaves the tap out of the
 * kernel's requests altogether (a plugin whose configuration turned it off costs them nothing),
 * while the tap keeps its place among the others. The function must still answer correctly when
 * called (through `hook.promise()`).
 *
 * @example
 * ```ts
 * tapDirect(kernel.hooks.route, 'my-router', (request) => table.get(request.path));
 * tapDirect(kernel.hooks.beforeRoute, 'files', serveFile, { active: () => root !== undefined });
 * tapDirect(kernel.hooks.beforeRoute, 'probe', answerProbe, { stage: -100 }); // before the other plugins' taps
 * ```
 */
export function tapDirect<H extends AsyncSeriesBailHook<any, any> | AsyncSeriesHook<any>>(hook: H, name: string, fn: DirectTapOf<H>, options: DirectTapOptions = {}): void {
  const call = fn as (...args: unknown[]) => unknown;
  const wrapped = async (...args: unknown[]): Promise<unknown> => call(...args);
  const tap = options.stage === undefined ? { name, direct: fn, active: options.active } : { name, direct: fn, active: options.active, stage: options.stage };
  (hook.tapPromise as (options: object, fn: (...args: unknown[]) => Promise<unknown>) => void)(tap, wrapped);
}

/** Options of {@link tapDirect}. */
export interface DirectTapOptions {
  /** Asked once at `ready()`: `false` leaves the tap out of the kernel's request path. */
  readonly active?: () => boolean;
  /**
   * tapable's `stage`: taps run by stage, lowest first, then in the order tapped (default 0). A
   * plugin that must answer before the others' taps of the same hook (health probes before
   * rate limits before static files) takes a negative stage; a `beforeSend` tap that must
   * see the response as every other tap left it (compression) takes a high one.
   */
  readonly stage?: number;
}

/**
 * The tapable `stage` at which `@hickory/hooks` taps `beforeSend`, `onAbort` and `onError` (the
 * `after` and `on_error` hooks of the application and its controllers). Taps at the default stage
 * (0) run after it: a plugin wraps the hooks as a WSGI middleware wraps a Pecan app, and sees the
 * response they left. A plugin that must run before them asks for a lower stage.
 *
 * @example
 * ```ts
 * // Sees the response before any `after` hook (the default is after all of them):
 * kernel.hooks.beforeSend.tap({ name: 'early', stage: APP_HOOKS_STAGE - 1 }, (request, response) => {});
 * ```
 */
export const APP_HOOKS_STAGE = -100;
