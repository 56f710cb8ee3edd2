import type { Request } from '@hickory/core';

interface Handoff {
  readonly child: object;
  readonly path: string;
  readonly ids: readonly string[];
}

const NO_IDS: readonly string[] = Object.freeze([]);

// A parent resource hands its ids to the child it routes into; the child takes them on its
// next `_route` call of the same request and path. Keyed by the request, so concurrent
// requests never see each other's ids, and a stale hand-off (an internal redirect, a child
// that routed elsewhere) is never picked up by another controller or path.
const handoffs = new WeakMap<Request, Handoff>();

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
  handoffs.set(request, { child, path: request.path, ids });
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
  const handoff = handoffs.get(request);
  if (handoff === undefined) return NO_IDS;
  handoffs.delete(request);
  return handoff.child === controller && handoff.path === request.path ? handoff.ids : NO_IDS;
}
