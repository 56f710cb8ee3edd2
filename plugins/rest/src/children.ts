import { parametersFor, type RouteTable } from '@hickory/dispatch/kit';
import { exposedAt, requiredPositional } from './select.ts';

/**
 * A child resource found in a path: where its name is, and the controller.
 *
 * @example
 * ```ts
 * const match: ChildMatch | undefined = findChild(table, ['1', 'books'], []);
 * ```
 */
export type ChildMatch =
  /** `skipped`: named right after the resource, before the ids it needs (`/authors/books/`). */
  | { readonly kind: 'child'; readonly controller: object; readonly at: number; readonly skipped: boolean }
  /** A nested resource's name among this resource's ids (`/authors/1/books/` when two are needed). */
  | { readonly kind: 'missing-id' };

/**
 * Finds a child controller (a controller held by this one) named in `own`, the resource's
 * non-empty path segments. The segments before it are this resource's ids: their number comes
 * from `get_one`, else `get` — between its required and its positional parameters, less the
 * `parentIds` already taken by outer resources, so an optional parent id works both nested and at
 * the top level. A rest parameter takes every segment up to the child's name. Without
 * `get_one`/`get` a child is found at the first segment only. Any child may also be named right
 * after the resource, before its ids (as Pecan: `POST /authors/books/`, `skipped`); a nested
 * resource's name found among the required ids is a missing id (the caller answers 404).
 * `explicit` as for `chooseHandler`: true without context locals.
 *
 * @example
 * ```ts
 * findChild(authorsTable, ['1', 'books', '2'], []); // { kind: 'child', controller: books, at: 1 }
 * ```
 */
export function findChild(table: RouteTable, own: readonly string[], parentIds: readonly string[], explicit = false): ChildMatch | undefined {
  if (own.length === 0) return undefined;
  const idFn = exposedAt(table, 'get_one') ?? exposedAt(table, 'get');
  let from = 0;
  let to = 0;
  if (idFn !== undefined) {
    const params = parametersFor(idFn, explicit);
    from = Math.max(0, requiredPositional(idFn, explicit) - parentIds.length);
    to = params.rest ? own.length - 1 : Math.max(from, params.positional - parentIds.length);
  }
  for (let i = from; i <= to && i < own.length; i++) {
    const controller = childAt(table, own[i]!);
    if (controller !== undefined) return { kind: 'child', controller, at: i, skipped: false };
  }
  for (let i = 0; i < from && i < own.length; i++) {
    const controller = childAt(table, own[i]!);
    if (controller === undefined) continue;
    // A child named right after the resource is reached for every verb (Pecan's _lookup_child).
    return i === 0 ? { kind: 'child', controller, at: 0, skipped: true } : { kind: 'missing-id' };
  }
  return undefined;
}

function childAt(table: RouteTable, segment: string): object | undefined {
  const entry = table.find(segment);
  return entry?.kind === 'child' && entry.table() !== null ? entry.value : undefined;
}
