import { exposureOf } from './exposure.ts';
import { hasGuards, isOpened } from './guards.ts';
import { controllerName } from './names.ts';
import { parametersFor } from './parameters.ts';
import { namePlaceholders, routeDescriptionOf } from './route-description.ts';
import { isController, routeTableOf } from './controller-tables.ts';
import type { RouteTable } from './route-table.ts';
import { schemaInfo, type SchemaInfo } from './route-schemas.ts';
import { genericHandler } from './generic-handler.ts';

/** One reachable route of a controller tree, as {@link routeMap} lists it. */
export interface RouteInfo {
  /**
   * The path; `*` stands for the segments a `_lookup`, `_default` or `_route` takes, `{name}` for
   * a segment a self-routing controller (a RestController) passes to the handler as `name`.
   */
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
  /** What plugins' {@link annotateRoutes} annotators say of this route (`{ hooks: ['TransactionHook'] }`). */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** The handler's `args` schemas by parameter: JSON Schema where the library converts, else `'schema'`. */
  readonly schemas?: SchemaInfo['schemas'];
  /** The handler's body schema, likewise. */
  readonly body?: SchemaInfo['body'];
  /** For a generic method: the `when()` handler of each other method, with its own parameters and schemas. */
  readonly handlers?: Readonly<Record<string, MethodHandlerInfo>>;
}

/** A `when()` handler of a generic route, as {@link RouteInfo.handlers} lists it. */
export interface MethodHandlerInfo extends SchemaInfo {
  /** `Class.method` of the handler. */
  readonly handler: string;
  /** Its parameter names. */
  readonly params: readonly string[];
}

/** A route with the function that answers it (for tools that need more than {@link RouteInfo}). */
export interface RouteTarget {
  readonly info: RouteInfo;
  /** The exposed method, or the special method where routing becomes dynamic. */
  readonly fn: Function;
  /** The route table of the controller that holds it. */
  readonly table: RouteTable;
}

/**
 * Every route reachable from `root` without running a handler: exposed methods (an index also at
 * its controller's trailing slash), generic methods with the methods their `when` handlers add,
 * renderings and parameters, and the points where `_lookup`, `_default` or `_route` decide per
 * request. A controller with a `_route` is listed through its `[describeRoutes]` when it has one (a
 * RestController's verbs, pages, custom actions and nested resources, `/books/{id}/edit`), else as
 * dynamic (`ANY /books/*`). Child controllers are followed breadth-first, each once, at its shortest path. Give the
 * app's `use_context_locals` so that the parameters listed are those the request fills.
 *
 * @example
 * ```ts
 * for (const route of routeMap(app.root!, app.config)) console.log(route.methods.join(','), route.path, route.handler);
 * ```
 */
export function routeMap(root: object, mode: RouteMapMode = {}): RouteInfo[] {
  return routeTargets(root, mode).map((target) => target.info);
}

/** How the app calls its handlers: `use_context_locals: false` gives them the request and the response first. */
export interface RouteMapMode {
  readonly use_context_locals?: boolean;
}

/**
 * The routes of {@link routeMap} with the function and route table behind each (the OpenAPI
 * document reads the `when()` handlers of generic methods through them).
 *
 * @example
 * ```ts
 * for (const { info, fn } of routeTargets(root, app.config)) console.log(info.path, fn.name);
 * ```
 */
export function routeTargets(root: object, { use_context_locals = true }: RouteMapMode = {}): RouteTarget[] {
  // Handlers (exposed methods, `when()` handlers, _default) then take the request and the response first.
  const explicit = !use_context_locals;
  const routes: RouteTarget[] = [];
  // Each controller once, at its shortest path; a self-routing parent's child once per way it is
  // reached (with the parent's ids, or right after the parent without them: `skipped`).
  const seen = new Map<object, Set<string>>([[root, new Set(['0'])]]);
  const firstTime = (controller: object, ids: number, skipped = 0): boolean => {
    const key = `${ids}/${skipped}`;
    const ways = seen.get(controller);
    if (ways === undefined) seen.set(controller, new Set([key]));
    else if (ways.has(key)) return false;
    else ways.add(key);
    return true;
  };
  // Each controller with its path, whether a guard above it (or its own) is checked on the way,
  // how many ids a self-routing parent took from the path (its handlers get them first), the
  // controllers on the way from the root (for the annotators), and the ids it was reached without.
  const pending: Array<[object, string, boolean, number, readonly object[], number | undefined]> = [[root, '/', hasGuards(root), 0, [root], undefined]];
  for (let i = 0; i < pending.length; i++) {
    const [controller, prefix, guarded, parentIds, way, skipped] = pending[i]!;
    const table = routeTableOf(controller)!;
    const owner = controllerName(controller);
    const mark = (route: RouteInfo, fn: Function, special = false): RouteTarget => {
      const named = route.path.includes('{}') ? { ...route, path: namePlaceholders(route.path, route.params) } : route;
      const annotated = annotationsOf(way, special ? undefined : fn);
      const info = annotated === undefined ? named : { ...named, annotations: annotated };
      return { info: isSecured(guarded, special ? undefined : fn) ? { ...info, secured: true } : info, fn, table };
    };
    if (table._route !== undefined) {
      // Its _route decides every path below: members and children are not reached by their names,
      // only as its description says.
      const description = routeDescriptionOf(controller, skipped === undefined ? { parentIds, explicit } : { parentIds, explicit, skipped });
      for (const route of description?.routes ?? []) {
        routes.push(mark(describe(`${prefix}${route.path}`, owner, route.fn.name, route.fn, table, explicit, route.methods), route.fn));
      }
      for (const child of description?.children ?? []) {
        const ids = parentIds + child.path.split('{}').length - 1;
        // Never back into a controller on its own way (a cycle), and each way once.
        if (way.includes(child.controller) || !firstTime(child.controller, ids, child.skipped)) continue;
        pending.push([child.controller, `${prefix}${child.path}/`, (guarded && !isOpened(child.controller)) || hasGuards(child.controller), ids, [...way, child.controller], child.skipped]);
      }
      if (description === undefined || description.partial) routes.push(mark(special(prefix, owner, '_route', paramNames(table._route)), table._route, true));
      continue;
    }
    for (const [segment, entry] of table.entries()) {
      if (entry.kind === 'method') {
        const name = entry.fn.name || entry.name;
        if (entry.fn === table.index) routes.push(mark(describe(`${prefix}`, owner, name, entry.fn, table, explicit), entry.fn));
        routes.push(mark(describe(`${prefix}${segment}`, owner, name, entry.fn, table, explicit), entry.fn));
      } else if (isController(entry.value) && firstTime(entry.value, parentIds)) {
        const child = entry.value;
        pending.push([child, `${prefix}${segment}/`, (guarded && !isOpened(child)) || hasGuards(child), parentIds, [...way, child], undefined]);
      }
    }
    if (table._lookup !== undefined) routes.push(mark(special(prefix, owner, '_lookup', paramNames(table._lookup)), table._lookup, true));
    if (table._default !== undefined) routes.push(mark(special(prefix, owner, '_default', paramNames(table._default, explicit)), table._default, true));
  }
  return routes;
}

/**
 * Adds facts to the routes of the map: called for each route with the controllers on its way from
 * the root (the last one holds the handler) and the handler (`undefined` where routing becomes
 * dynamic); what it returns is merged into the route's `annotations`. For plugins that attach
 * behaviour to controllers (`@hickory/hooks` lists the controller hooks that run).
 *
 * @example
 * ```ts
 * annotateRoutes((way) => (way.some(isAudited) ? { audited: true } : undefined));
 * ```
 */
export function annotateRoutes(annotator: RouteAnnotator): void {
  annotators.add(annotator);
}

/** See {@link annotateRoutes}. */
export type RouteAnnotator = (way: readonly object[], handler: Function | undefined) => Readonly<Record<string, unknown>> | undefined;

const annotators = new Set<RouteAnnotator>();

function annotationsOf(way: readonly object[], handler: Function | undefined): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  for (const annotator of annotators) {
    const facts = annotator(way, handler);
    if (facts !== undefined) found = { ...found, ...facts };
  }
  return found;
}

// A handler is checked when a guard on the way applies to it (it is not opened) or it has its own.
function isSecured(guarded: boolean, fn: Function | undefined): boolean {
  if (fn === undefined) return guarded;
  return (guarded && !isOpened(fn)) || hasGuards(fn);
}

function special(prefix: string, owner: string, name: '_lookup' | '_default' | '_route', params: string[]): RouteInfo {
  return { path: `${prefix}*`, methods: ['ANY'], handler: `${owner}.${name}`, renders: [], params, dynamic: name };
}

// `given`: the methods a self-routing controller answers the route with.
function describe(path: string, owner: string, name: string, fn: Function, table: RouteTable, explicit: boolean, given?: readonly string[]): RouteInfo {
  const exposure = exposureOf(fn);
  const methods = given ?? (exposure?.generic ? [...new Set(['GET', 'HEAD', ...table.handledMethods(fn), 'OPTIONS'])] : ['ANY']);
  const renders = (exposure?.renderings ?? []).map((r) => r.template ?? r.mediaType);
  const route: RouteInfo = { path, methods, handler: `${owner}.${name}`, renders: renders.length > 0 ? renders : ['text/html'], params: paramNames(fn, explicit), ...schemaInfo(fn) };
  return exposure?.generic && given === undefined ? withHandlers(route, owner, fn, table, explicit) : route;
}

// The when() handlers of a generic method: each method's own parameters and schemas.
function withHandlers(route: RouteInfo, owner: string, fn: Function, table: RouteTable, explicit: boolean): RouteInfo {
  const handlers: Record<string, MethodHandlerInfo> = {};
  for (const method of table.handledMethods(fn)) {
    const handler = genericHandler(table, fn, method)!;
    handlers[method] = { handler: `${owner}.${handler.name}`, params: paramNames(handler, explicit), ...schemaInfo(handler) };
  }
  return Object.keys(handlers).length > 0 ? { ...route, handlers } : route;
}

/**
 * The parameter names of a handler as the route map shows them (`...rest`, `{…}` for a pattern).
 *
 * @example
 * ```ts
 * paramNames(function show(id, ...parts) {}); // ['id', '...parts']
 * paramNames(function show(request, response, id) {}, true); // ['id'] (use_context_locals: false)
 * ```
 */
// What a request fills: a parameter a wrapper supplies itself (`wraps(…, { supplies })`) is not.
function paramNames(fn: Function, explicit = false): string[] {
  return parametersFor(fn, explicit)
    .list.filter((p) => p.supplied !== true)
    .map((p) => (p.rest ? `...${p.name ?? 'args'}` : (p.name ?? '{…}')));
}
