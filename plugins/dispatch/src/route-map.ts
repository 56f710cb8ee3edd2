import { exposureOf } from './exposure.ts';
import { controllerName } from './names.ts';
import { parametersOf } from './parameters.ts';
import { isController, routeTableOf, type RouteTable } from './route-table.ts';

/** One reachable route of a controller tree, as {@link routeMap} lists it. */
export interface RouteInfo {
  /** The path; `*` stands for the segments a `_lookup`, `_default` or `_route` takes. */
  readonly path: string;
  /** The HTTP methods: `ANY` for a method that answers every one, else GET, HEAD and the `when` methods. */
  readonly methods: readonly string[];
  /** `Class.method` of the handler, or of the special method where routing becomes dynamic. */
  readonly handler: string;
  /** How the value is rendered, outermost first: `json`, a template, or a media type. */
  readonly renders: readonly string[];
  /** The handler's parameter names (`...rest` for a rest parameter). */
  readonly params: readonly string[];
  /** Set where routing becomes dynamic: what happens past this point is decided per request. */
  readonly dynamic?: '_lookup' | '_default' | '_route';
}

/**
 * Every route reachable from `root` without running a handler: exposed methods (an index also at
 * its controller's trailing slash), generic methods with the methods their `when` handlers add,
 * renderings and parameters, and the points where `_lookup`, `_default` or `_route` decide per
 * request (below a `_route`, such as a RestController's, nothing is listed by name: its verbs are
 * its own). Child controllers are followed breadth-first, each once, at its shortest path.
 *
 * @example
 * ```ts
 * for (const route of routeMap(app.root!)) console.log(route.methods.join(','), route.path, route.handler);
 * ```
 */
export function routeMap(root: object): RouteInfo[] {
  const routes: RouteInfo[] = [];
  const seen = new Set<object>([root]);
  const pending: Array<[object, string]> = [[root, '/']];
  for (let i = 0; i < pending.length; i++) {
    const [controller, prefix] = pending[i]!;
    const table = routeTableOf(controller)!;
    const owner = controllerName(controller);
    if (table.route !== undefined) {
      // Its _route decides every path below (a RestController's verbs and nested resources too):
      // members and children are not reached by their names here.
      routes.push(special(prefix, owner, '_route', table.route));
      continue;
    }
    for (const [segment, entry] of table.entries()) {
      if (entry.kind === 'method') {
        const name = entry.fn.name || entry.name;
        if (entry.fn === table.index) routes.push(describe(`${prefix}`, owner, name, entry.fn, table));
        routes.push(describe(`${prefix}${segment}`, owner, name, entry.fn, table));
      } else if (isController(entry.value) && !seen.has(entry.value)) {
        seen.add(entry.value);
        pending.push([entry.value, `${prefix}${segment}/`]);
      }
    }
    if (table.lookup !== undefined) routes.push(special(prefix, owner, '_lookup', table.lookup));
    if (table.default !== undefined) routes.push(special(prefix, owner, '_default', table.default));
  }
  return routes;
}

function special(prefix: string, owner: string, name: '_lookup' | '_default' | '_route', fn: Function): RouteInfo {
  return { path: `${prefix}*`, methods: ['ANY'], handler: `${owner}.${name}`, renders: [], params: paramNames(fn), dynamic: name };
}

function describe(path: string, owner: string, name: string, fn: Function, table: RouteTable): RouteInfo {
  const exposure = exposureOf(fn);
  const methods = exposure?.generic ? [...new Set(['GET', 'HEAD', ...table.handledMethods(fn), 'OPTIONS'])] : ['ANY'];
  const renders = (exposure?.renderings ?? []).map((r) => r.template ?? r.mediaType);
  return { path, methods, handler: `${owner}.${name}`, renders: renders.length > 0 ? renders : ['text/html'], params: paramNames(fn) };
}

function paramNames(fn: Function): string[] {
  return parametersOf(fn).list.map((p) => (p.rest ? `...${p.name ?? 'args'}` : (p.name ?? '{…}')));
}
