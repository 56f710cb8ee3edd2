/**
 * The dispatch plugin's `route` tap: object dispatch of one request, in stages that only call
 * forward (a stage's file imports later stages and leaves such as `route-table.ts`, never an
 * earlier stage; nothing imports this file but the plugin):
 *
 * 1. **split** (`path.ts`: `splitPath`, `splitExtension`): decoded segments, made only when the
 *    path may end in a known extension (`/books.json`, here) or must be walked in full (by
 *    resolve, for the walk); a leaf that calls nothing. Fast resolution reads the raw path;
 * 2. **resolve** (`resolve.ts`: `resolvePath`, fast resolution): a path of plain names that reaches
 *    an exposed method, compared in place against cached route tables; anything else goes on to
 * 3. **walk** (`walk.ts`: `walk`): one loop over phases — the tree by route table, `_route` (or
 *    the shortcut it carries: REST's plan), then `_lookup`/`_default` from the deepest controller
 *    outward; the guards' checks still due on the trail (`guards.ts`) run before a `_route` or
 *    `_lookup` is called;
 * 4. **select** (`select.ts`: `selectHandler`): the handler for the request's verb (a generic
 *    method's `when()` handlers, 405, OPTIONS);
 * 5. **negotiate** (`negotiate.ts`: `negotiate`): the rendering, by extension or `Accept` (406);
 * 6. **call** (`call.ts`: `callSelected`): the {@link Lookup} that maps the arguments, calls the
 *    handler and renders its value (`render.ts`: `renderValue`).
 *
 * This file holds the order: {@link routeRequest} splits and resolves, {@link answerFound}
 * runs the checks still due and the last three stages. `node scripts/request-stops.mjs` counts
 * the functions the request passes through from here (issue #40: at most 30).
 */
import { redirect, type Kernel, type Lookup, type Request, type Response } from '@hickory/core';
import type { Awaitable } from './awaitable.ts';
import { callSelected, handlerCallOf } from './call.ts';
import { jsonByDefault } from './default-json.ts';
import { exposureOf } from './exposure.ts';
import { guardsDeclared, runDueChecks } from './guards.ts';
import { negotiate } from './negotiate.ts';
import { OptionsLookup } from './options-lookup.ts';
import { splitExtension, splitPath } from './path.ts';
import { resolvePath } from './resolve.ts';
import { peekRoutingState } from './routing-state.ts';
import { selectHandler } from './select.ts';
import { walk, type Resolution, type WalkBudget } from './walk.ts';
import { startTrail, type TrailSwitch } from './walk-trail.ts';

/** The routing settings read from the kernel's configuration at `ready()`. */
export interface DispatchSettings {
  /** `force_canonical`: redirect an index reached without its trailing slash. */
  readonly forceCanonical: boolean;
  /** `guess_content_type_from_ext`: a known extension selects the rendering. */
  readonly guessFromExtension: boolean;
  /** Whether walks are recorded (`recordWalks`); left out, they are not. */
  readonly trail?: TrailSwitch;
  /** `default_renderer: 'json'`: a plain `@expose()` renders JSON. */
  readonly defaultJson?: boolean;
}

/**
 * Routes one request from `root` and returns the {@link Lookup} to run, `undefined` when nothing
 * answers (404), or a promise of either when a `_lookup`, `_route` or guard must wait. A known
 * extension (`/books.json`) is first tried stripped; when that finds nothing or a method not
 * offering the type, the full segment is routed as data. What the plugin taps on `route`.
 *
 * @example
 * ```ts
 * tapDirect(kernel.hooks.route, 'dispatch', (request, response) => routeRequest(kernel, root, settings, request, response));
 * ```
 */
export function routeRequest(kernel: Kernel, root: object, settings: DispatchSettings, request: Request, response: Response): Awaitable<Lookup | undefined> {
  const path = request.path;
  // A new routing of the same request (an internal redirect, an error document) starts clean.
  const state = peekRoutingState(request);
  if (state !== undefined) state.routingArgs = undefined;
  const guarded = guardsDeclared();
  const recorded = settings.trail?.on === true;
  if (settings.guessFromExtension && path.includes('.') && path.includes('.', path.lastIndexOf('/'))) {
    return routeWithExtension(kernel, root, settings, request, response, path, recorded, guarded ? new Set() : undefined);
  }
  const budget = budgetFor(request, root, recorded, guarded ? new Set() : undefined);
  const found = resolvePath(root, path, request, budget);
  if (found instanceof Promise) return found.then((resolved) => answerFound(kernel, settings, resolved, request, response, budget, undefined));
  return answerFound(kernel, settings, found, request, response, budget, undefined);
}

async function routeWithExtension(
  kernel: Kernel,
  root: object,
  settings: DispatchSettings,
  request: Request,
  response: Response,
  path: string,
  recorded: boolean,
  passed: Set<object> | undefined,
): Promise<Lookup | undefined> {
  const segments = splitPath(path);
  const extension = splitExtension(segments);
  if (extension !== undefined) {
    const budget = budgetFor(request, root, recorded, passed);
    const found = await walk(root, extension.segments, request, budget);
    const lookup = await answerFound(kernel, settings, found, request, response, budget, extension.mediaType);
    if (lookup !== undefined) return lookup;
  }
  const budget = budgetFor(request, root, recorded, passed);
  return answerFound(kernel, settings, await walk(root, segments, request, budget), request, response, budget, undefined);
}

// The walk's counters; with a trail when walks are recorded (`recordWalks`) or guarded (`passed`:
// the controllers whose checks ran in this routing, so that a second walk skips them).
function budgetFor(request: Request, root: object, recorded: boolean, passed: Set<object> | undefined): WalkBudget {
  if (!recorded && passed === undefined) return { lookups: 0, routes: 0 };
  // Kept for `walkedControllers` only when a plugin asked.
  const trail = recorded ? startTrail(request, root) : [root];
  return passed === undefined ? { lookups: 0, routes: 0, trail } : { lookups: 0, routes: 0, trail, checked: 0, passed };
}

/**
 * What answers once the walk has `found` its target (or nothing): the guards' checks still due,
 * then the canonical redirect, **select**, **negotiate** and **call**. With `extensionType` (the
 * first try of `/books.json`), `undefined` when the target does not offer that type, and no
 * checks for a miss (the full segment is routed next).
 *
 * @example
 * ```ts
 * return answerFound(kernel, settings, walk(root, segments, request, budget), request, response, budget, undefined);
 * ```
 */
function answerFound(
  kernel: Kernel,
  settings: DispatchSettings,
  found: Resolution | undefined,
  request: Request,
  response: Response,
  budget: WalkBudget,
  extensionType: string | undefined,
): Awaitable<Lookup | undefined> {
  if (budget.checked === undefined) return found === undefined ? undefined : lookupFor(kernel, settings, found, request, response, extensionType, undefined);
  if (found === undefined) {
    if (extensionType !== undefined) return undefined;
    // A 404 below a guarded controller waits for its checks: a refused client cannot tell what exists.
    const due = runDueChecks(budget, request, undefined);
    return due === undefined ? undefined : due.then(() => undefined);
  }
  // The checks still due run before anything answers: a handler, a canonical redirect, a 405/406.
  const due = runDueChecks(budget, request, found.fn, found.controller);
  if (due !== undefined) return due.then(() => lookupFor(kernel, settings, found, request, response, extensionType, budget));
  return lookupFor(kernel, settings, found, request, response, extensionType, budget);
}

// Select, negotiate, call. With `budget` (a guarded routing), a generic method's `when()` handler
// may carry guards of its own: they run before the lookup is answered.
function lookupFor(
  kernel: Kernel,
  settings: DispatchSettings,
  found: Resolution,
  request: Request,
  response: Response,
  extensionType: string | undefined,
  budget: WalkBudget | undefined,
): Awaitable<Lookup | undefined> {
  if (extensionType === undefined && found.canonical && settings.forceCanonical && !exposureOf(found.fn)?.acceptNoncanonical) redirectToIndex(request);
  const handler = selectHandler(found, request.method);
  if (handler.kind === 'options') return new OptionsLookup(found.fn, handler.allow);
  const rendering = negotiate(settings.defaultJson === true ? jsonByDefault(handler.renderings) : handler.renderings, extensionType, request, response);
  if (rendering === undefined) return undefined;
  const remainder = peekRoutingState(request)?.takeRoutingArgs(found.remainder) ?? found.remainder;
  const lookup = callSelected(kernel, found.controller, handler, remainder, rendering);
  if (budget === undefined) return lookup;
  const own = handlerCallOf(lookup)?.handler;
  if (own === undefined || own === found.fn) return lookup;
  const due = runDueChecks(budget, request, own, found.controller);
  return due === undefined ? lookup : due.then(() => lookup);
}

// 302 for GET/HEAD (a browser may change nothing), 308 otherwise (the method and body are kept).
// The Location is built from the path only, never from Host.
function redirectToIndex(request: Request): never {
  const path = `/${request.path.replace(/^\/+/, '')}/`;
  const code = request.method === 'GET' || request.method === 'HEAD' ? 302 : 308;
  return redirect(request.query_string ? `${path}?${request.query_string}` : path, { code });
}
