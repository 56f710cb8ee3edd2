import { redirect, type Kernel, type Lookup, type Request, type Response } from '@hickory/core';
import { callExposed, handlerCallOf } from './call.ts';
import { negotiate } from './negotiate.ts';
import { splitExtension, splitPath } from './path.ts';
import { clearRoutingArgs, takeRoutingArgs } from './routing-args.ts';
import { selectHandler } from './select.ts';
import { resolvePath } from './resolve.ts';
import { walk, type Resolution, type WalkBudget } from './walk.ts';
import { startTrail, type TrailSwitch } from './walk-trail.ts';
import { guardsDeclared, runDueChecks } from './guards.ts';
import { exposureOf, renderingsOf, type Rendering } from './exposure.ts';

/** The routing settings read from the kernel's configuration at `ready()`. */
export interface DispatchSettings {
  /** `force_canonical`: redirect an index reached without its trailing slash. */
  readonly forceCanonical: boolean;
  /** `guess_content_type_from_ext`: a known extension selects the rendering. */
  readonly guessFromExtension: boolean;
  /** Whether walks are recorded (`recordWalks`); left out, they are not. */
  readonly trail?: TrailSwitch;
}

/**
 * Routes one request from `root`: splits and decodes the path, walks the tree, chooses the
 * handler for the HTTP method and the rendering, and returns the {@link Lookup} to run, or
 * `undefined` when nothing answers (404). A known extension (`/books.json`) is first tried
 * stripped; when that finds nothing or a method not offering the type, the full segment is
 * routed as data.
 *
 * @example
 * ```ts
 * kernel.hooks.route.tapPromise('dispatch', (request) => routeRequest(kernel, root, settings, request));
 * ```
 */
export async function routeRequest(kernel: Kernel, root: object, settings: DispatchSettings, request: Request): Promise<Lookup | undefined> {
  return routeDirect(kernel, root, settings, request);
}

/**
 * {@link routeRequest} without a promise when the walk needs none (no async `_lookup`/`_route`):
 * the {@link Lookup}, `undefined`, or a promise of either. What the plugin taps on `route`.
 *
 * @example
 * ```ts
 * tapDirect(kernel.hooks.route, 'dispatch', (request) => routeDirect(kernel, root, settings, request));
 * ```
 */
export function routeDirect(
  kernel: Kernel,
  root: object,
  settings: DispatchSettings,
  request: Request,
): Lookup | undefined | Promise<Lookup | undefined> {
  const path = request.path;
  clearRoutingArgs(request);
  if (settings.trail?.on === true || guardsDeclared()) return routeWalked(kernel, root, settings, request, path);
  if (settings.guessFromExtension && path.includes('.') && path.includes('.', path.lastIndexOf('/'))) return routeWithExtension(kernel, root, settings, request, path, false);
  // A budget of its own: a guarded controller first made by a `_lookup` turns checks on in it.
  const budget: WalkBudget = { lookups: 0, routes: 0 };
  const found = resolvePath(root, path, request, budget);
  if (found instanceof Promise) return found.then((resolved) => routeGuarded(kernel, resolved, settings, request, budget));
  return routeGuarded(kernel, found, settings, request, budget);
}

async function routeWithExtension(
  kernel: Kernel,
  root: object,
  settings: DispatchSettings,
  request: Request,
  path: string,
  walked: boolean,
  passed?: Set<object>,
): Promise<Lookup | undefined> {
  const segments = splitPath(path);
  const extension = splitExtension(segments);
  if (extension !== undefined) {
    const budget = walked ? budgetFor(request, root, passed, settings.trail?.on === true) : { lookups: 0, routes: 0 };
    const found = await walk(root, extension.segments, request, budget);
    if (found !== undefined && budget.checked !== undefined) await runDueChecks(budget, request, found.fn, found.controller);
    const lookup = found && lookupFor(kernel, found, request, extension.mediaType);
    if (lookup) return budget.checked === undefined ? lookup : handlerChecked(lookup, found!, budget, request);
  }
  const budget = walked ? budgetFor(request, root, passed, settings.trail?.on === true) : { lookups: 0, routes: 0 };
  return routeGuarded(kernel, await walk(root, segments, request, budget), settings, request, budget);
}

// The full walk, keeping the trail: for plugins that read it (`recordWalks`), and for guards,
// whose checks it runs (see `guard`).
function routeWalked(kernel: Kernel, root: object, settings: DispatchSettings, request: Request, path: string): Lookup | undefined | Promise<Lookup | undefined> {
  const passed = guardsDeclared() ? new Set<object>() : undefined;
  if (settings.guessFromExtension && path.includes('.') && path.includes('.', path.lastIndexOf('/'))) return routeWithExtension(kernel, root, settings, request, path, true, passed);
  const budget = budgetFor(request, root, passed, settings.trail?.on === true);
  const found = resolvePath(root, path, request, budget);
  if (found instanceof Promise) return found.then((resolved) => routeGuarded(kernel, resolved, settings, request, budget));
  return routeGuarded(kernel, found, settings, request, budget);
}

// A fresh trail for one walk; with guards, the counters their checks need.
function budgetFor(request: Request, root: object, passed: Set<object> | undefined, record: boolean): WalkBudget {
  // Kept for `walkedControllers` only when a plugin asked (`recordWalks`).
  const trail = record ? startTrail(request, root) : [root];
  return passed === undefined ? { lookups: 0, routes: 0, trail } : { lookups: 0, routes: 0, trail, checked: 0, passed };
}

// The checks still due run before anything answers: a handler, a canonical redirect, a 405/406
// — or a 404, so that a refused client cannot tell what exists below a guarded controller.
function routeGuarded(
  kernel: Kernel,
  found: Resolution | undefined,
  settings: DispatchSettings,
  request: Request,
  budget: WalkBudget | undefined,
): Lookup | undefined | Promise<Lookup | undefined> {
  if (budget?.checked === undefined) return routeResolved(kernel, found, settings, request);
  const due = runDueChecks(budget, request, found?.fn, found?.controller);
  if (due !== undefined) return due.then(() => routeChecked(kernel, found, settings, request, budget));
  return routeChecked(kernel, found, settings, request, budget);
}

function routeChecked(kernel: Kernel, found: Resolution | undefined, settings: DispatchSettings, request: Request, budget: WalkBudget): Lookup | undefined | Promise<Lookup | undefined> {
  const lookup = routeResolved(kernel, found, settings, request);
  return lookup === undefined ? undefined : handlerChecked(lookup, found!, budget, request);
}

// A generic method's `when()` handler may carry guards of its own.
function handlerChecked(lookup: Lookup, found: Resolution, budget: WalkBudget, request: Request): Lookup | Promise<Lookup> {
  const handler = handlerCallOf(lookup)?.handler;
  if (handler === undefined || handler === found.fn) return lookup;
  const due = runDueChecks(budget, request, handler, found.controller);
  return due === undefined ? lookup : due.then(() => lookup);
}

function routeResolved(kernel: Kernel, found: Resolution | undefined, settings: DispatchSettings, request: Request): Lookup | undefined {
  if (found === undefined) return undefined;
  if (found.canonical && settings.forceCanonical) redirectToIndex(request);
  return lookupFor(kernel, found, request, undefined);
}

/**
 * The {@link Lookup} for a resolved target: the handler for the request's method (405 / OPTIONS
 * for generic targets), the rendering by extension or `Accept` (406), then the call. `undefined`
 * when `extensionType` is given and the handler does not offer it.
 *
 * @example
 * ```ts
 * const found = await walk(controller, remainder, request);
 * return found && lookupFor(kernel, found, request, undefined);
 * ```
 */
export function lookupFor(kernel: Kernel, found: Resolution, request: Request, extensionType: string | undefined): Lookup | undefined {
  const fn = found.fn;
  const target = targetOf(fn);
  let handlerFn = fn;
  let renderings = target.renderings;
  if (target.generic) {
    const handler = selectHandler(found, request.method);
    if (handler.kind === 'options') return new OptionsLookup(fn, handler.allow);
    handlerFn = handler.fn;
    renderings = handler.renderings;
  }
  const rendering = negotiate(renderings, extensionType, request);
  if (rendering === undefined) return undefined;
  return callExposed(kernel, found.controller, handlerFn, takeRoutingArgs(request, found.remainder), rendering);
}

// What routing needs of an exposed function, read once: whether it is generic, and the renderings
// of a non-generic one (the registry's own list, so a later stacked exposure is still seen).
interface TargetFacts {
  readonly generic: boolean;
  readonly renderings: readonly Rendering[];
}

const targets = new WeakMap<Function, TargetFacts>();

function targetOf(fn: Function): TargetFacts {
  let facts = targets.get(fn);
  if (facts === undefined) {
    const exposure = exposureOf(fn);
    const generic = exposure?.generic === true;
    facts = { generic, renderings: generic ? [] : renderingsOf(fn) };
    // Only renderings read from the registry are final; a fallback is looked up again next time.
    if (generic || (exposure !== undefined && exposure.renderings.length > 0)) targets.set(fn, facts);
  }
  return facts;
}

class OptionsLookup implements Lookup {
  readonly loadBody = false;
  readonly handle: (request: Request, response: Response) => undefined;
  constructor(
    readonly target: Function,
    allow: string,
  ) {
    this.handle = (_request: Request, response: Response) => answerOptions(response, allow);
  }
}

function answerOptions(response: Response, allow: string): undefined {
  response.status = 204;
  response.headerMap.set('Allow', allow);
  return undefined;
}

// 302 for GET/HEAD (a browser may change nothing), 308 otherwise (the method and body are kept).
// The Location is built from the path only, never from Host.
function redirectToIndex(request: Request): never {
  const path = `/${request.path.replace(/^\/+/, '')}/`;
  const code = request.method === 'GET' || request.method === 'HEAD' ? 302 : 308;
  return redirect(request.query_string ? `${path}?${request.query_string}` : path, { code });
}
