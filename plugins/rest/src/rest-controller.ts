import { HTTPError, type Request } from '@hickory/core';
import { describeRoutes, fits, peekRoutingState, routingState, type Awaitable, type DescribeContext, type RouteDescription } from '@hickory/dispatch/kit';
import { restRouteDescription } from './route-description.ts';
import { findChild } from './children.ts';
import { answerOptions, recordAllow } from './options-answer.ts';
import { allowedVerbs, chooseHandler, resourceVerbs, tooManySegments, type RestView } from './select.ts';
import { restFactsFor, type RestFacts } from './rest-facts.ts';
import { requestVerb, type RequestVerb } from './verbs.ts';

/**
 * What `_route` gives back to object dispatch: an exposed method of this controller or a
 * controller, and the segments left.
 *
 * @example
 * ```ts
 * const result: RouteResult = [this.get_one, ['7']];
 * ```
 */
export type RouteResult = [target: object | Function, remainder: string[]];

/**
 * A resource controller routed by HTTP verb and method name (as in Pecan): GET `/r/` →
 * `get_all` (or `get`), GET `/r/<id>` → `get_one` (or `get`), GET `/r/new` → `new`, GET
 * `/r/<id>/edit` → `edit`, GET `/r/<id>/delete` → `get_delete`, POST `/r/` → `post`,
 * PUT `/r/<id>` → `put`, DELETE `/r/<id>` → `delete`, any other verb → the same-named method.
 * `_method=put|delete` on a POST (query or form) stands for the verb. A verb with no method →
 * 405 with `Allow`; OPTIONS → 204 with `Allow` unless `options` is defined; HEAD is routed as GET.
 *
 * `static _custom_actions = { checkout: ['POST'] }` routes `POST /r/<id>/checkout` to
 * `checkout(id)`. A controller held as a property is a child resource: its methods receive the
 * parents' ids first (`GET /authors/1/books/2` → `books.get_one('1', '2')`). `index`, `_lookup`
 * and `_default` are honored; a subclass may override `_route` and call `super._route(...)`.
 *
 * @example
 * ```ts
 * class BooksController extends RestController {
 *   static _custom_actions = { checkout: ['POST'] };
 *   @expose('json') get_all() { return books; }
 *   @expose('json') get_one(id: string) { return books.find((b) => b.id === id) ?? abort(404); }
 *   @expose('json') post(name: string) { return create(name); }
 *   @expose('json') checkout(id: string) { return { checked_out: id }; }
 * }
 * ```
 */
export class RestController {
  /** Extra actions by segment, with the HTTP methods each answers (`{ checkout: ['POST'] }`). */
  static _custom_actions?: Readonly<Record<string, readonly string[]>>;

  /**
   * Routes the rest of the path inside this resource. An override calls
   * `super._route(remainder, request)` (possibly with a changed remainder) to keep REST routing.
   *
   * @example
   * ```ts
   * override _route(remainder: readonly string[], request: Request) {
   *   if (remainder[0] === 'legacy') return super._route(remainder.slice(1), request);
   *   return super._route(remainder, request);
   * }
   * ```
   */
  _route(remainder: readonly string[], request: Request): Awaitable<RouteResult | undefined> {
    // At once when nothing must wait (the usual case), so dispatch's walk stays synchronous.
    return routeResource(this, remainder, request);
  }

  /**
   * What this resource answers, for the route map (`hickory routes`, `routeMap`, the OpenAPI
   * document): its verbs, pages, custom actions and nested resources. With an overridden `_route`
   * the map also keeps the dynamic entry: the override may answer more.
   *
   * @example
   * ```ts
   * routeMap(new Root()).map((r) => `${r.methods.join(',')} ${r.path}`); // ['GET,HEAD /books/', 'GET,HEAD /books/{id}', …]
   * ```
   */
  [describeRoutes](context: DescribeContext): RouteDescription {
    const description = restRouteDescription(this, context);
    return this._route === RestController.prototype._route ? description : { ...description, partial: true };
  }
}

/**
 * The REST routing of `controller`: what `RestController.prototype._route` does. At once unless
 * the verb needs the body (a POST form that may carry `_method`): then a promise.
 *
 * @example
 * ```ts
 * const routed = await routeResource(books, ['7'], request); // [books.get_one, ['7']]
 * ```
 */
function routeResource(controller: object, remainder: readonly string[], request: Request): Awaitable<RouteResult | undefined> {
  const facts = restFactsFor(controller);
  if (facts === undefined) return undefined;
  const ids = peekRoutingState(request)?.takeParentIds(controller, request.path) ?? NO_IDS;
  const known = requestVerb(request);
  if (known instanceof Promise) return known.then((verb) => routeWithVerb(facts, remainder, request, ids, verb));
  return routeWithVerb(facts, remainder, request, ids, known);
}

function routeWithVerb(
  facts: RestFacts,
  remainder: readonly string[],
  request: Request,
  ids: readonly string[],
  { verb, refused }: RequestVerb,
): RouteResult | undefined {
  const { view } = facts;
  const { table } = view;
  const own = withoutEmpty(remainder);
  // A GET that asks to stand for PUT or DELETE is refused wherever it leads, children included.
  if (refused !== undefined) throw notAllowed(view, own, ids, refused, request);
  const child = facts.hasChildren ? findChild(table, own, ids, request) : undefined;
  if (child?.kind === 'child') {
    const childIds = [...ids, ...own.slice(0, child.at)];
    // A nested resource takes the ids in its own routing; a plain controller's handler gets them
    // as its first arguments (Pecan's routing_args).
    if (restFactsFor(child.controller)?.view.table._route !== undefined) routingState(request).giveParentIds(child.controller, request.path, childIds);
    else routingState(request).addRoutingArgs(childIds);
    return [child.controller, remainder.slice(positionOf(remainder, child.at) + 1)];
  }
  const rescuable = table._default !== undefined || (table._lookup !== undefined && own.length > 0);
  if (child?.kind === 'missing-id') {
    if (rescuable) return undefined;
    throw new HTTPError(404, 'The resource could not be found: an id is missing before the nested resource.');
  }

  const plainGet = facts.plainGet;
  if (plainGet !== undefined && verb === 'GET' && own.length > 0 && (!rescuable || fits(plainGet, ids.length === 0 ? own : [...ids, ...own], request))) {
    // What chooseHandler would answer (get_one / get), without building its choice.
    return [plainGet, ids.length === 0 ? own.slice() : [...ids, ...own]];
  }
  const choice = chooseHandler(view, verb, own, ids, request);
  if (choice.kind === 'call') {
    // Arguments that do not fit give the controller's _lookup/_default a chance first (then 404).
    if (rescuable && !fits(choice.fn, choice.args, request)) return undefined;
    return [choice.fn, choice.args === remainder ? remainder.slice() : (choice.args as string[])];
  }
  if (choice.kind === 'options') {
    recordAllow(request, allowedVerbs(view, own, ids, request).join(', ') || 'OPTIONS');
    return [answerOptions, []];
  }
  if (rescuable) return undefined;
  throw notAllowed(view, own, ids, `${request.method} is not allowed here`, request);
}

const NO_IDS: readonly string[] = Object.freeze([]);

// The non-empty segments; the same array when none is empty (the usual case), never changed.
function withoutEmpty(remainder: readonly string[]): readonly string[] {
  if (!remainder.includes('')) return remainder;
  return remainder.filter((segment) => segment !== '');
}

// Where the `at`-th non-empty segment is in `remainder`.
function positionOf(remainder: readonly string[], at: number): number {
  let seen = -1;
  for (let i = 0; i < remainder.length; i++) if (remainder[i] !== '' && ++seen === at) return i;
  return remainder.length;
}

// A 405 naming what the resource answers, even when nothing answers at this path (an empty
// resource, one without get_all or get_one: Pecan); a 404 only when a handler exists but cannot
// take this many segments.
function notAllowed(view: RestView, own: readonly string[], ids: readonly string[], reason: string, request: Request): HTTPError {
  let allow = allowedVerbs(view, own, ids, request);
  if (allow.length === 0) {
    if (tooManySegments(view, own, ids, request)) return new HTTPError(404, 'The resource could not be found: the path has more segments than its handlers take.');
    allow = resourceVerbs(view);
  }
  const value = allow.join(', ');
  return new HTTPError(405, `${reason}; allowed: ${value}.`, { Allow: value });
}
