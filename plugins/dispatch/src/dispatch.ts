import { redirect, type Kernel, type Lookup, type Request, type Response } from '@hickory/core';
import { callExposed } from './call.ts';
import { negotiate } from './negotiate.ts';
import { splitExtension, splitPath } from './path.ts';
import { clearRoutingArgs, takeRoutingArgs } from './routing-args.ts';
import { selectHandler } from './select.ts';
import { resolvePath } from './resolve.ts';
import { walk, walkDirect, type Resolution, type WalkBudget } from './walk.ts';
import { startTrail, type TrailSwitch } from './walk-trail.ts';
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
  if (settings.trail?.on === true) return routeRecorded(kernel, root, settings, request, path);
  if (settings.guessFromExtension && path.includes('.', path.lastIndexOf('/'))) return routeWithExtension(kernel, root, settings, request, path);
  const found = resolvePath(root, path, request);
  if (found instanceof Promise) return found.then((resolved) => routeResolved(kernel, resolved, settings, request));
  return routeResolved(kernel, found, settings, request);
}

async function routeWithExtension(kernel: Kernel, root: object, settings: DispatchSettings, request: Request, path: string): Promise<Lookup | undefined> {
  const segments = splitPath(path);
  const extension = splitExtension(segments);
  if (extension !== undefined) {
    const found = await walk(root, extension.segments, request, budgetFor(settings, request, root));
    const lookup = found && lookupFor(kernel, found, request, extension.mediaType);
    if (lookup) return lookup;
  }
  return routeResolved(kernel, await walk(root, segments, request, budgetFor(settings, request, root)), settings, request);
}

// With walks recorded: always the full walk (the fast path keeps no trail), a fresh trail each.
function routeRecorded(kernel: Kernel, root: object, settings: DispatchSettings, request: Request, path: string): Lookup | undefined | Promise<Lookup | undefined> {
  if (settings.guessFromExtension && path.includes('.', path.lastIndexOf('/'))) return routeWithExtension(kernel, root, settings, request, path);
  const found = walkDirect(root, splitPath(path), request, budgetFor(settings, request, root));
  if (found instanceof Promise) return found.then((resolved) => routeResolved(kernel, resolved, settings, request));
  return routeResolved(kernel, found, settings, request);
}

function budgetFor(settings: DispatchSettings, request: Request, root: object): WalkBudget {
  return settings.trail?.on === true ? { lookups: 0, routes: 0, trail: startTrail(request, root) } : { lookups: 0, routes: 0 };
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
