import { isController, parametersFor, routeTableOf, type DescribeContext, type DescribedChild, type DescribedRoute, type RouteDescription } from '@hickory/dispatch/kit';
import { restFactsFor } from './rest-facts.ts';
import { exposedAt, requiredCount, verbHandler } from './select.ts';
import { HTTP_METHODS } from './verbs.ts';

const GET = ['GET', 'HEAD'];

/**
 * The routes a REST resource answers, as the route map lists them (`{}` for an id): what
 * `chooseHandler` and `findChild` would pick, read from the controller's exposed methods, custom
 * actions and child controllers instead of from a request.
 *
 * @example
 * ```ts
 * restRouteDescription(new BooksController(), { parentIds: 0, explicit: false }).routes;
 * // [{ path: '', methods: ['GET', 'HEAD'], fn: get_all }, { path: '{}', methods: ['GET', 'HEAD'], fn: get_one }, …]
 * ```
 */
export function restRouteDescription(controller: object, { parentIds, explicit }: DescribeContext): RouteDescription {
  const facts = restFactsFor(controller);
  if (facts === undefined) return { routes: [], children: [] };
  const { table, actions } = facts.view;
  const required = (fn: Function) => requiredCount(parametersFor(fn, explicit));
  // The ids of one record: as many as get_one (or get) needs beyond its parents' (one by default).
  const idFn = exposedAt(table, 'get_one') ?? exposedAt(table, 'get');
  const idCount = idFn === undefined ? 1 : Math.max(1, required(idFn) - parentIds);
  const record = Array.from({ length: idCount }, () => '{}').join('/');
  // A handler that needs no id of its own answers on the collection, else on a record.
  const at = (fn: Function, word = '', wordFirst = false) => {
    const base = required(fn) > parentIds ? record : '';
    return base === '' ? word : word === '' ? base : wordFirst ? `${word}/${base}` : `${base}/${word}`;
  };

  const routes: DescribedRoute[] = [];
  const add = (path: string, methods: readonly string[], fn: Function | undefined) => {
    if (fn !== undefined) routes.push({ path, methods, fn });
  };
  add('', GET, exposedAt(table, 'get_all') ?? exposedAt(table, 'get') ?? table.index);
  add('new', GET, exposedAt(table, 'new'));
  add(record, GET, idFn);
  add(`${record}/edit`, GET, exposedAt(table, 'edit'));
  add(`${record}/delete`, GET, exposedAt(table, 'get_delete'));
  add('', ['POST'], exposedAt(table, 'post'));
  // PUT, DELETE, then any other HTTP method answered by its method (`post_<verb>` before `<verb>`).
  for (const verb of ['PUT', 'DELETE', ...[...HTTP_METHODS].filter((m) => !['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'].includes(m))]) {
    const fn = verbHandler(facts.view, verb);
    if (fn !== undefined) add(at(fn), [verb], fn);
  }
  for (const [word, action] of actions) {
    // PUT and DELETE name the action first (`/update/{id}`), the other verbs last (`/{id}/checkout`).
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
  return { routes, children: childrenOf(controller, record) };
}

// Nested resources take the record's ids in their own routing; a plain controller gets them as its
// handlers' first arguments (as `findChild` routes them).
function childrenOf(controller: object, record: string): DescribedChild[] {
  const table = routeTableOf(controller)!;
  const children: DescribedChild[] = [];
  for (const [segment, entry] of table.entries()) {
    if (entry.kind !== 'child' || !isController(entry.value)) continue;
    children.push({ path: `${record}/${segment}`, controller: entry.value });
  }
  return children;
}
