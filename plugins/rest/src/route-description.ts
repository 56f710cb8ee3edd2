import { isController, parametersFor, routeTableOf, type DescribeContext, type DescribedChild, type DescribedRoute, type RouteDescription } from '@hickory/dispatch/kit';
import { restFactsFor, type RestFacts } from './rest-facts.ts';
import { exposedAt, requiredCount, verbHandler } from './select.ts';
import { HTTP_METHODS } from './verbs.ts';

const GET = ['GET', 'HEAD'];
const OTHER_VERBS = [...HTTP_METHODS].filter((m) => !['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'].includes(m));

/**
 * The routes a REST resource answers, as the route map lists them (`{}` for an id): what
 * `chooseHandler` and `findChild` would pick, read from the controller's exposed methods, custom
 * actions and child controllers instead of from a request. A nested resource is listed with its
 * parents' ids (`/authors/{author}/books/{id}`) and, for what only answers there, right after
 * its parent (`POST /foos/bars/` → `Bars.post()`, `context.skipped`).
 *
 * @example
 * ```ts
 * restRouteDescription(new BooksController(), { parentIds: 0, explicit: false }).routes;
 * // [{ path: '', methods: ['GET', 'HEAD'], fn: get_all }, { path: '{}', methods: ['GET', 'HEAD'], fn: get_one }, …]
 * ```
 */
export function restRouteDescription(controller: object, context: DescribeContext): RouteDescription {
  const facts = restFactsFor(controller);
  if (facts === undefined) return { routes: [], children: [] };
  const skipped = context.skipped ?? 0;
  if (skipped === 0) return describe(controller, facts, context.parentIds, context.explicit, false);
  // Right after the parent: only what the path with the parent's ids does not reach already.
  const withIds = describe(controller, facts, context.parentIds + skipped, context.explicit, false);
  const listed = new Map<Function, Set<string>>();
  for (const route of withIds.routes) for (const method of route.methods) listed.set(route.fn, (listed.get(route.fn) ?? new Set()).add(method));
  const here = describe(controller, facts, context.parentIds, context.explicit, true);
  const routes: DescribedRoute[] = [];
  for (const route of here.routes) {
    const methods = route.methods.filter((method) => !listed.get(route.fn)?.has(method));
    if (methods.length > 0) routes.push(methods.length === route.methods.length ? route : { ...route, methods });
  }
  return { routes, children: here.children };
}

// The routes of a resource whose handlers get `parentIds` values first. `skipped`: reached right
// after its parent, where a GET that lacks a value answers 404 (so it is not listed).
function describe(controller: object, facts: RestFacts, parentIds: number, explicit: boolean, skipped: boolean): RouteDescription {
  const { table, actions } = facts.view;
  const params = (fn: Function) => parametersFor(fn, explicit);
  const required = (fn: Function) => requiredCount(params(fn));
  // The ids of one record: as many as get_one (or get) needs beyond its parents' (one by default).
  const idFn = exposedAt(table, 'get_one') ?? exposedAt(table, 'get');
  const idCount = idFn === undefined ? 1 : Math.max(1, required(idFn) - parentIds);
  const record = Array.from({ length: idCount }, () => '{}').join('/');
  // A handler that needs no id of its own answers on the collection, else on a record (with the
  // ids it needs, at most a record's: the rest come from variables); the action word comes last,
  // or first for PUT and DELETE.
  const at = (fn: Function, word = '', wordFirst = false) => {
    const own = Math.min(required(fn) - parentIds, idCount);
    const base = own <= 0 ? '' : own === idCount ? record : Array.from({ length: own }, () => '{}').join('/');
    return base === '' ? word : word === '' ? base : wordFirst ? `${word}/${base}` : `${base}/${word}`;
  };

  const routes: DescribedRoute[] = [];
  const add = (path: string, methods: readonly string[], fn: Function | undefined) => {
    if (fn === undefined) return;
    // What the handler receives there: the parents' ids, then the path's.
    const values = parentIds + (path.match(/\{\}/g)?.length ?? 0);
    const { positional, rest } = params(fn);
    if (!rest && positional < values) return;
    if (skipped && methods.includes('GET') && required(fn) > values) return;
    // In a nested resource, PUT and DELETE that take no id beyond the parents' are for the path
    // right after the parent (`PUT /foos/bars/{id}` → `Bars.put(id)`).
    if (parentIds > 0 && !skipped && !rest && (methods.includes('PUT') || methods.includes('DELETE')) && positional <= parentIds) return;
    routes.push({ path, methods, fn });
  };
  add('', GET, exposedAt(table, 'get_all') ?? exposedAt(table, 'get') ?? table.index);
  add('new', GET, exposedAt(table, 'new'));
  add(record, GET, idFn);
  add(`${record}/edit`, GET, exposedAt(table, 'edit'));
  add(`${record}/delete`, GET, exposedAt(table, 'get_delete'));
  add('', ['POST'], exposedAt(table, 'post'));
  // PUT, DELETE, then any other HTTP method answered by its method (`post_<verb>` before `<verb>`).
  for (const verb of ['PUT', 'DELETE', ...OTHER_VERBS]) {
    const fn = verbHandler(facts.view, verb);
    if (fn !== undefined) add(at(fn), [verb], fn);
  }
  for (const [word, action] of actions) {
    // Grouped by the method that answers (get_count for GET, count for POST…).
    const byFn = new Map<Function, string[]>();
    for (const [verb, fn] of action) byFn.set(fn, [...(byFn.get(fn) ?? []), verb]);
    for (const [fn, verbs] of byFn) {
      const first = verbs.filter((verb) => verb === 'PUT' || verb === 'DELETE');
      const last = verbs.filter((verb) => verb !== 'PUT' && verb !== 'DELETE');
      if (last.length > 0) add(at(fn, word), last, fn);
      if (first.length > 0) add(at(fn, word, true), first, fn);
    }
  }
  add('', ['OPTIONS'], verbHandler(facts.view, 'OPTIONS'));
  // Right after the resource, without its ids, only from a resource that got none itself: the
  // map shows `/foos/bars/`, not each mix of given and skipped ids the routing also takes.
  const needed = idFn === undefined || parentIds > 0 ? 0 : required(idFn);
  return { routes, children: childrenOf(controller, idFn === undefined ? '' : record, needed, parentIds + idCount, explicit) };
}

// Children are found after the record's ids (nested resources take them in their own routing, a
// plain controller's handlers get them first), and right after the resource when its get_one
// needs ids (`skipped`: the child is reached without them, as `findChild` routes it); without
// get_one or get, right after the resource only.
// A plain child none of whose methods can take the ids is listed right after the resource only.
function childrenOf(controller: object, record: string, needed: number, ids: number, explicit: boolean): DescribedChild[] {
  const table = routeTableOf(controller)!;
  const children: DescribedChild[] = [];
  for (const [segment, entry] of table.entries()) {
    if (entry.kind !== 'child' || !isController(entry.value)) continue;
    if (record === '') children.push({ path: segment, controller: entry.value });
    else if (restFactsFor(entry.value)?.view.table._route !== undefined || takesIds(entry.value, ids, explicit)) children.push({ path: `${record}/${segment}`, controller: entry.value });
    if (needed > 0) children.push({ path: segment, controller: entry.value, skipped: needed });
  }
  return children;
}

// True when some exposed method of a plain controller can take `ids` path values first.
function takesIds(controller: object, ids: number, explicit: boolean): boolean {
  for (const [, entry] of routeTableOf(controller)!.entries()) {
    if (entry.kind !== 'method') continue;
    const { positional, rest } = parametersFor(entry.fn, explicit);
    if (rest || positional >= ids) return true;
  }
  return false;
}
