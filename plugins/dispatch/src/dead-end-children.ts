import type { Kernel } from '@hickory/core';
import { controllerName, describeValue } from './names.ts';
import { MAX_SEGMENTS } from './path.ts';
import { isController, routeTableOf } from './controller-tables.ts';

/**
 * An object that a URL segment names but that holds nothing routable at or below it: no exposed
 * method, no `_lookup`/`_default`/`_route` (so no REST handler either), no controller. Routing
 * answers 404 there today, but the segment is in the URL space: once anything below the object
 * becomes routable, so does the path. Almost always a store or service kept in a public (or
 * TypeScript `private`) field that was meant to be `#field` or `_field`.
 */
export interface DeadEndChild {
  /**
   * The path the segment makes, with a trailing slash (`/books/store/`): the path of the fields.
   * Below a `_route` (a RestController's) the URL may carry ids between them (`/authors/1/books/`).
   */
  readonly path: string;
  /** The class name of the controller that holds the object. */
  readonly owner: string;
  /** The segment: the field's name, or the segment given to `route()`. */
  readonly segment: string;
  /** The object, for messages. */
  readonly value: object;
  /** True when `route(Class, segment, object)` put it there rather than a field. */
  readonly mounted: boolean;
}

/**
 * Finds the dead-end children of the tree below `root`: walks the controllers routing can reach
 * by name (each once, breadth first, so each at its shortest path; at most `maxDepth` segments
 * deep, as no longer path can be requested), and lists every child entry of their route tables
 * that is not a controller. What counts as routable is the route table's own notion
 * ({@link isController}), the one the walk and REST use; getters are never run. Controllers that
 * only a `_lookup` or `_route` creates per request are not seen.
 *
 * @example
 * ```ts
 * class Books { readonly store = new Map(); @expose() index() { return 'books'; } }
 * findDeadEndChildren({ books: new Books() }); // [{ path: '/books/store/', owner: 'Books', segment: 'store', … }]
 * ```
 */
export function findDeadEndChildren(root: object, maxDepth: number = MAX_SEGMENTS): DeadEndChild[] {
  const found: DeadEndChild[] = [];
  const visited = new Set<object>([root]);
  const pending: Array<[controller: object, path: string, depth: number]> = [[root, '/', 0]];
  for (let i = 0; i < pending.length; i++) {
    const [controller, path, depth] = pending[i]!;
    if (depth >= maxDepth) continue;
    const table = routeTableOf(controller);
    if (table === undefined) continue;
    for (const [segment, entry] of table.entries()) {
      if (entry.kind !== 'child') continue;
      const childPath = `${path}${segment}/`;
      if (!isController(entry.value)) {
        found.push({ path: childPath, owner: controllerName(controller), segment, value: entry.value, mounted: table.isExplicit(segment) });
      } else if (!visited.has(entry.value)) {
        visited.add(entry.value);
        pending.push([entry.value, childPath, depth + 1]);
      }
    }
  }
  return found;
}

/**
 * Logs one warning per {@link findDeadEndChildren} result through `kernel.logger`, naming the path
 * and the fix. Called at `ready()` outside production only; never on the request path.
 *
 * @example
 * ```ts
 * if (process.env.NODE_ENV !== 'production') warnDeadEndChildren(kernel, kernel.root!);
 * // [hickory] /books/store/ leads nowhere: Books.store holds an object (Map) … rename the field to #store or _store.
 * ```
 */
export function warnDeadEndChildren(kernel: Kernel, root: object): void {
  for (const child of findDeadEndChildren(root)) kernel.logger.warn(deadEndMessage(child));
}

/**
 * The warning for one dead-end child: the path, what holds what, why it matters, and the fix.
 *
 * @example
 * ```ts
 * deadEndMessage({ path: '/shelf/', owner: 'Root', segment: 'shelf', value: new Shelf(), mounted: false });
 * ```
 */
export function deadEndMessage(child: DeadEndChild): string {
  const { path, owner, segment, value } = child;
  const what = `${describeValue(value)} with nothing routable at or below it (no exposed method, _lookup, _default or _route)`;
  if (child.mounted) {
    return `${path} leads nowhere: route(${owner}, '${segment}', …) mounts ${what}, so it answers 404. Mount a controller there, or remove the route().`;
  }
  return (
    `${path} leads nowhere: ${owner}.${segment} holds ${what}. It answers 404 today, but routing follows every public field, ` +
    `and TypeScript's private or protected does not hide one: the path becomes live as soon as anything below it is exposed. ` +
    `If ${path} is not meant to be a URL, rename the field to #${segment} or _${segment}.`
  );
}
