import { redirect, type Kernel, type Lookup, type Request, type Response } from '@hickory/core';
import { callExposed } from './call.ts';
import { negotiate } from './negotiate.ts';
import { splitExtension, splitPath } from './path.ts';
import { selectHandler } from './select.ts';
import { resolvePath } from './resolve.ts';
import { walk, type Resolution } from './walk.ts';

/** The routing settings read from the kernel's configuration at `ready()`. */
export interface DispatchSettings {
  /** `force_canonical`: redirect an index reached without its trailing slash. */
  readonly forceCanonical: boolean;
  /** `guess_content_type_from_ext`: a known extension selects the rendering. */
  readonly guessFromExtension: boolean;
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
  const path = request.path;
  if (settings.guessFromExtension && path.includes('.', path.lastIndexOf('/'))) {
    const segments = splitPath(path);
    const extension = splitExtension(segments);
    if (extension !== undefined) {
      const found = await walk(root, extension.segments, request);
      const lookup = found && lookupFor(kernel, found, request, extension.mediaType);
      if (lookup) return lookup;
    }
    return routeResolved(kernel, await walk(root, segments, request), settings, request);
  }
  return routeResolved(kernel, await resolvePath(root, path, request), settings, request);
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
  const handler = selectHandler(found, request.method);
  if (handler.kind === 'options') {
    return { target: found.fn, loadBody: false, handle: (_request: Request, response: Response) => answerOptions(response, handler.allow) };
  }
  const rendering = negotiate(handler.renderings, extensionType, request);
  if (rendering === undefined) return undefined;
  return callExposed(kernel, found.controller, handler.fn, found.remainder, rendering);
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
