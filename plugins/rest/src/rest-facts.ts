import { routeTableOf, type RouteTable } from '@hickory/dispatch/kit';
import { customActionsOf } from './custom-actions.ts';
import { exposedAt, type RestView } from './select.ts';

/**
 * What REST routing needs of one controller that does not depend on the request, read once per
 * route table (a table is built once per controller instance and never changes).
 *
 * @example
 * ```ts
 * const facts = restFactsOf(books, routeTableOf(books)!);
 * chooseHandler(facts.view, 'GET', ['7'], []);
 * ```
 */
export interface RestFacts {
  /** The table and custom actions, as {@link chooseHandler} and {@link allowedVerbs} take them. */
  readonly view: RestView;
  /** True when a segment selects a child controller (a nested resource may be named in the path). */
  readonly hasChildren: boolean;
  /**
   * What answers every GET `/<id…>` when no custom action or page (`new`, `edit`, `get_delete`)
   * can take the last segment: `get_one`, else `get`; `undefined` when those may.
   */
  readonly plainGet: Function | undefined;
}

const byTable = new WeakMap<RouteTable, RestFacts>();
const byController = new WeakMap<object, RestFacts>();

/**
 * The {@link RestFacts} of `controller`, or `undefined` when it has no route table (not an object
 * dispatch can enter); remembered per controller instance (its table never changes).
 *
 * @example
 * ```ts
 * restFactsFor(books)?.view.table === routeTableOf(books); // true
 * ```
 */
export function restFactsFor(controller: object): RestFacts | undefined {
  const known = byController.get(controller);
  if (known !== undefined) return known;
  const table = routeTableOf(controller);
  if (table === undefined) return undefined;
  const facts = restFactsOf(controller, table);
  byController.set(controller, facts);
  return facts;
}

/**
 * The {@link RestFacts} of `controller`, whose route table is `table`; computed on first use.
 * A custom-actions mistake throws (and is not remembered, so it throws again next time).
 *
 * @example
 * ```ts
 * restFactsOf(books, routeTableOf(books)!).hasChildren; // false for a flat resource
 * ```
 */
function restFactsOf(controller: object, table: RouteTable): RestFacts {
  let facts = byTable.get(table);
  if (facts === undefined) {
    const actions = customActionsOf(controller);
    const pages = exposedAt(table, 'new') ?? exposedAt(table, 'edit') ?? exposedAt(table, 'get_delete');
    facts = Object.freeze({
      view: Object.freeze({ table, actions }),
      hasChildren: hasChildControllers(table),
      plainGet: actions.size === 0 && pages === undefined ? (exposedAt(table, 'get_one') ?? exposedAt(table, 'get')) : undefined,
    });
    byTable.set(table, facts);
  }
  return facts;
}

function hasChildControllers(table: RouteTable): boolean {
  for (const [, entry] of table.entries()) if (entry.kind === 'child' && entry.table() !== null) return true;
  return false;
}
