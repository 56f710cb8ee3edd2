import { HTTPError } from '@hickory/core';
import { exposureOf, renderingsOf, type Rendering } from './exposure.ts';
import { genericHandler } from './generic-handler.ts';
import { handlerFacts, type HandlerFacts } from './handler-facts.ts';
import type { Resolution } from './resolution.ts';

/** The function that answers a request's HTTP method, with the renderings it may use. */
export type Handler =
  | { readonly kind: 'call'; readonly fn: Function; readonly renderings: readonly Rendering[]; readonly facts: HandlerFacts }
  | { readonly kind: 'options'; readonly allow: string };

type Call = Extract<Handler, { kind: 'call' }>;

/**
 * The select stage: what answers `method` at a resolved target. A generic method answers GET
 * and HEAD (unless a `when()` handler takes them), its `when()` handlers their methods, OPTIONS
 * gets the `Allow` list, and any other method → 405 with `Allow`. A non-generic target answers
 * any method (its answer is made once per function).
 *
 * @example
 * ```ts
 * selectHandler(found, 'POST'); // { kind: 'call', fn: Root.prototype.items_post, renderings: [...] }
 * ```
 */
export function selectHandler(found: Resolution, method: string): Handler {
  const { fn, table } = found;
  const plain = plainHandlerOf(fn);
  if (plain !== undefined) return plain;
  const handler = genericHandler(table, fn, method);
  if (handler !== undefined) return { kind: 'call', fn: handler, renderings: renderingsOf(handler, fn), facts: handlerFacts(handler) };
  const allow = allowedMethods(found);
  if (method === 'OPTIONS') return { kind: 'options', allow };
  throw new HTTPError(405, `${method} is not allowed here; allowed: ${allow}.`, { Allow: allow });
}

// The answer of a non-generic function, read once (the registry's own list of renderings, so a
// later stacked exposure is still seen), with what its calls need (its facts); GENERIC marks a generic one.
const plainHandlers = new WeakMap<Function, Call | typeof GENERIC>();
const GENERIC = Symbol('generic');

function plainHandlerOf(fn: Function): Call | undefined {
  const known = plainHandlers.get(fn);
  if (known !== undefined) return known === GENERIC ? undefined : known;
  const exposure = exposureOf(fn);
  if (exposure?.generic === true) {
    plainHandlers.set(fn, GENERIC);
    return undefined;
  }
  const handler: Call = { kind: 'call', fn, renderings: renderingsOf(fn), facts: handlerFacts(fn, exposure) };
  // Only renderings read from the registry are final; a fallback is looked up again next time.
  if (exposure !== undefined && exposure.renderings.length > 0) plainHandlers.set(fn, handler);
  return handler;
}

/**
 * The `Allow` value of a generic target: GET, HEAD, its `when()` methods, and OPTIONS.
 *
 * @example
 * ```ts
 * allowedMethods(found); // 'GET, HEAD, POST, OPTIONS'
 * ```
 */
function allowedMethods(found: Resolution): string {
  return [...new Set(['GET', 'HEAD', ...found.table.handledMethods(found.fn), 'OPTIONS'])].join(', ');
}
