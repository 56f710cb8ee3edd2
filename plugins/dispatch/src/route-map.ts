import { exposureOf } from './exposure.ts';
import { hasGuards, isOpened } from './guards.ts';
import { controllerName } from './names.ts';
import { explicitParametersOf, parametersOf, type ParameterList } from './parameters.ts';
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
  /**
   * The parameter names the request fills (`...rest` for a rest parameter): with
   * `use_context_locals: false`, a handler's after the request and the response.
   */
  readonly params: readonly string[];
  /** Set where routing becomes dynamic: what happens past this point is decided per request. */
  readonly dynamic?: '_lookup' | '_default' | '_route';
  /** Set when a guard (`secure`) is checked before this route answers. */
  readonly secured?: true;
}

/**
 * Every route reachable from `root` without running a handler: exposed methods (an index also at
 * its controller's trailing slash), generic methods with the methods their `when` handlers add,
 * renderings and parameters, and the points where `_lookup`, `_default` or `_route` decide per
 * request (below a `_route`, such as a RestController's, nothing is listed by name: its verbs are
 * its own). Child controllers are followed breadth-first, each once, at its shortest path. Give the
 * app's `use_context_locals` so that the parameters listed are those the request fills.
 *
 * @example
 * ```ts
 * for (const route of routeMap(app.root!, app.config)) console.log(route.methods.join(','), route.path, route.handler);
 * ```
 */
export function routeMap(root: object, { use_context_locals = true }: { use_context_locals?: boolean } = {}): RouteInfo[] {
  // Handlers (exposed methods, _default) then take the request and the response first.
  const handlerParams = use_context_locals ? paramNames : (fn: Function) => paramNames(fn, explicitParametersOf);
  const routes: RouteInfo[] = [];
  const seen = new Set<object>([root]);
  // Each controller with whether a guard above it (or its own) is checked on the way.
  const pending: Array<[object, string, boolean]> = [[root, '/', hasGuards(root)]];
  for (let i = 0; i < pending.length; i++) {
    const [controller, prefix, guarded] = pending[i]!;
    const table = routeTableOf(controller)!;
    const owner = controllerName(controller);
    const mark = (route: RouteInfo, fn?: Function): RouteInfo => (isSecured(guarded, fn) ? { ...route, secured: true } : route);
    if (table.route !== undefined) {
      // Its _route decides every path below (a RestController's verbs and nested resources too):
      // members and children are not reached by their names here.
      routes.push(mark(special(prefix, owner, '_route', paramNames(table.route))));
      continue;
    }
    for (const [segment, entry] of table.entries()) {
      if (entry.kind === 'method') {
        const name = entry.fn.name || entry.name;
        const params = handlerParams(entry.fn);
        if (entry.fn === table.index) routes.push(mark(describe(`${prefix}`, owner, name, entry.fn, table, params), entry.fn));
        routes.push(mark(describe(`${prefix}${segment}`, owner, name, entry.fn, table, params), entry.fn));
      } else if (isController(entry.value) && !seen.has(entry.value)) {
        seen.add(entry.value);
        const child = entry.value;
        pending.push([child, `${prefix}${segment}/`, (guarded && !isOpened(child)) || hasGuards(child)]);
      }
    }
    if (table.lookup !== undefined) routes.push(mark(special(prefix, owner, '_lookup', paramNames(table.lookup))));
    if (table.default !== undefined) routes.push(mark(special(prefix, owner, '_default', handlerParams(table.default))));
  }
  return routes;
}

// A handler is checked when a guard on the way applies to it (it is not opened) or it has its own.
function isSecured(guarded: boolean, fn: Function | undefined): boolean {
  if (fn === undefined) return guarded;
  return (guarded && !isOpened(fn)) || hasGuards(fn);
}

function special(prefix: string, owner: string, name: '_lookup' | '_default' | '_route', params: string[]): RouteInfo {
  return { path: `${prefix}*`, methods: ['ANY'], handler: `${owner}.${name}`, renders: [], params, dynamic: name };
}

function describe(path: string, owner: string, name: string, fn: Function, table: RouteTable, params: string[]): RouteInfo {
  const exposure = exposureOf(fn);
  const methods = exposure?.generic ? [...new Set(['GET', 'HEAD', ...table.handledMethods(fn), 'OPTIONS'])] : ['ANY'];
  const renders = (exposure?.renderings ?? []).map((r) => r.template ?? r.mediaType);
  return { path, methods, handler: `${owner}.${name}`, renders: renders.length > 0 ? renders : ['text/html'], params };
}

function paramNames(fn: Function, listOf: (fn: Function) => ParameterList = parametersOf): string[] {
  return listOf(fn).list.map((p) => (p.rest ? `...${p.name ?? 'args'}` : (p.name ?? '{…}')));
}
