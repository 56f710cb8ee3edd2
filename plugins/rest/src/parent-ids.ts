import type { Request } from '@hickory/core';

interface Handoff {
  readonly child: object;
  readonly path: string;
  readonly ids: readonly string[];
}

const NO_IDS: readonly string[] = Object.freeze([]);

// A parent resource hands its ids to the child it routes into; the child takes them on its
// next `_route` call of the same request and path. Kept on the request, so concurrent
// requests never see each other's ids, and a stale hand-off (an internal redirect, a child
// that routed elsewhere) is never picked up by another controller or path. (A WeakMap keyed by
// the request cost a look-up on every REST request and the garbage collector its ephemerons.)
const HANDOFF = Symbol('hickory.parentIds');

interface WithHandoff {
  [HANDOFF]?: Handoff | undefined;
}

/**
 * Records the ids collected so far (the parents' ids, outermost first) for `child`, which
 * routes this request next.
 *
 * @example
 * ```ts
 * giveParentIds(request, this.books, ['1']); // GET /authors/1/books/2
 * ```
 */
export function giveParentIds(request: Request, child: object, ids: readonly string[]): void {
  (request as WithHandoff)[HANDOFF] = { child, path: request.path, ids };
}

/**
 * The parent ids handed to `controller` for this request (empty at the top level), taken once.
 *
 * @example
 * ```ts
 * takeParentIds(request, this); // ['1'] inside /authors/1/books/
 * ```
 */
export function takeParentIds(request: Request, controller: object): readonly string[] {
  const holder = request as WithHandoff;
  const handoff = holder[HANDOFF];
  if (handoff === undefined) return NO_IDS;
  holder[HANDOFF] = undefined;
  return handoff.child === controller && handoff.path === request.path ? handoff.ids : NO_IDS;
}
