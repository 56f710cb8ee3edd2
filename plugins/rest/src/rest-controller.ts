import { HTTPError, type Request } from '@hickory/core';
import { describeRoutes, directRoute, fits, peekRoutingState, routingState, type Awaitable, type DescribeContext, type RouteDescription, type RouteTable } from '@hickory/dispatch/kit';
import { HAND_OFF, takeHandOff, type HandOff } from './hand-off.ts';
import { restRouteDescription } from './route-description.ts';
import { findChild } from './children.ts';
import { answerOptions, recordAllow } from './options-answer.ts';
import { allowedVerbs, chooseHandler, requiredPositional, resourceVerbs, type RestView } from './select.ts';
import { lookupWithEmptySegment } from './lookup-empty.ts';
import { restFactsFor, type RestFacts } from './rest-facts.ts';
import { routeAtOnce } from './rest-plan.ts';
import { requestVerb, type RequestVerb } from './verbs.ts';
import { withoutEmpty } from './segments.ts';

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
 * PUT `/r/<id>` → `put`, DELETE `/r/<id>` → `post_delete` or `delete`, any other verb →
 * `post_<verb>` or `<verb>` (PATCH → `post_patch`, `patch`). `_method=put|delete` on a POST
 * (query or form) stands for the verb. A verb with no method → 405 with `Allow`; OPTIONS → 204
 * with `Allow` unless `post_options` or `options` is defined; HEAD is routed as GET.
 *
 * `static _custom_actions = { checkout: ['POST'], update: ['PUT'] }` routes `POST /r/<id>/checkout`
 * to `checkout(id)` and `PUT /r/update/<id>` to `update(id)` (PUT and DELETE name the action
 * first); a method `<verb>_<action>` (`get_count`) answers before the action's own. A controller
 * held as a property is a child resource: its methods receive the parents' ids first
 * (`GET /authors/1/books/2` → `books.get_one('1', '2')`); named right after the parent it is
 * reached without them (`POST /authors/books/` → `books.post()`). `index`, `_lookup` and
 * `_default` are honored; a subclass may override `_route` and call `super._route(...)`.
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
    // The REST routing of this resource. At once unless the verb needs the body (a POST form that
    // may carry `_method`) or a `_lookup` returns a promise, so dispatch's walk stays synchronous.
    const facts = restFactsFor(this);
    if (facts === undefined) return undefined;
    const state = peekRoutingState(request);
    const ids = state?.takeParentIds(this, request.path) ?? NO_IDS;
    const handOff = state === undefined ? undefined : takeHandOff(state, this, request.path);
    const known = requestVerb(request);
    if (known instanceof Promise) return known.then((verb) => routeWithVerb(this, facts, remainder, request, ids, handOff, verb));
    return routeWithVerb(this, facts, remainder, request, ids, handOff, known);
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

// Dispatch's walk takes this shortcut for a resource whose `_route` is this one (not overridden),
// where the answer is one of its own methods and known at once (see rest-plan.ts).
Object.defineProperty(RestController.prototype._route, directRoute, { value: routeAtOnce });

const MISSING_ID = 'The resource could not be found: an id is missing before the nested resource.';

function routeWithVerb(
  controller: object,
  facts: RestFacts,
  remainder: readonly string[],
  request: Request,
  ids: readonly string[],
  handOff: HandOff | undefined,
  { verb, refused }: RequestVerb,
): Awaitable<RouteResult | undefined> {
  const { view } = facts;
  const { table } = view;
  // The parameter rules' mode, read once: the helpers below need no request.
  const explicit = !request.use_context_locals;
  const own = withoutEmpty(remainder);
  const rescuable = table._default !== undefined || (table._lookup !== undefined && own.length > 0);
  const child = facts.hasChildren ? findChild(table, own, ids, explicit) : undefined;
  if (child?.kind === 'child') {
    const nested = restFactsFor(child.controller)?.view.table._route !== undefined;
    // A GET that asks to stand for PUT or DELETE is refused where it would be answered: inside a
    // nested resource, or here for a plain child's methods.
    if (refused !== undefined && !nested) throw new HTTPError(405, `${refused}`, { Allow: 'GET, HEAD, OPTIONS' });
    const childIds = ids.length === 0 && child.at === 0 ? NO_IDS : [...ids, ...own.slice(0, child.at)];
    const state = routingState(request);
    if (nested) {
      // A nested resource takes the ids in its own routing.
      state.giveParentIds(child.controller, request.path, childIds);
      const rescuableAbove = rescuable || (handOff?.rescuableAbove ?? false);
      if (child.skipped || rescuableAbove) state.set(HAND_OFF, { child: child.controller, path: request.path, skipped: child.skipped, rescuableAbove });
    } else {
      // A plain controller's handler gets them as its first arguments (Pecan's routing_args).
      state.addRoutingArgs(childIds);
    }
    return [child.controller, remainder.slice(positionOf(remainder, child.at) + 1)];
  }
  if (refused !== undefined) throw notAllowed(view, own, ids, refused, explicit);
  if (child?.kind === 'missing-id') {
    if (rescuable) return undefined;
    throw new HTTPError(404, MISSING_ID);
  }
  const skipped = handOff?.skipped === true;

  const plainGet = facts.plainGet;
  if (plainGet !== undefined && !skipped && verb === 'GET' && own.length > 0 && (!rescuable || fits(plainGet, ids.length === 0 ? own : [...ids, ...own], explicit))) {
    // What chooseHandler would answer (get_one / get), without building its choice.
    return [plainGet, ids.length === 0 ? own.slice() : [...ids, ...own]];
  }
  const choice = chooseHandler(view, verb, own, ids, explicit);
  if (choice.kind === 'call') {
    // Reached without the parent's ids, a GET whose handler needs more than the path gives lacks
    // an id (Pecan: 404, which the resource's _lookup may rescue).
    if (skipped && verb === 'GET' && requiredPositional(choice.fn, explicit) > choice.args.length) {
      return missingId(controller, table, remainder, own, handOff!.rescuableAbove);
    }
    // Arguments that do not fit give the controller's _lookup/_default a chance first (then 404).
    if (rescuable && !fits(choice.fn, choice.args, explicit)) return undefined;
    return [choice.fn, choice.args === remainder ? remainder.slice() : (choice.args as string[])];
  }
  if (choice.kind === 'options') {
    recordAllow(request, allowedVerbs(view, own, ids, explicit).join(', ') || 'OPTIONS');
    return [answerOptions, []];
  }
  if (rescuable) return undefined;
  throw notAllowed(view, own, ids, `${verbName(verb, request.method)} is not allowed here`, explicit);
}

// A nested resource reached without its parent's id: its `_lookup` gets the segments (the empty
// one a trailing slash leaves when there is no other, as Pecan), then whatever may answer above
// it (`undefined` lets the walk try them); else a 404 that says what is missing.
function missingId(
  controller: object,
  table: RouteTable,
  remainder: readonly string[],
  own: readonly string[],
  rescuableAbove: boolean,
): Awaitable<RouteResult | undefined> {
  if (table._lookup !== undefined) {
    if (own.length > 0) return undefined;
    if (remainder.length > 0) return lookupWithEmptySegment(controller, table._lookup, rescuableAbove ? undefined : MISSING_ID);
  }
  if (table._default !== undefined || rescuableAbove) return undefined;
  throw new HTTPError(404, MISSING_ID);
}

// The verb as a 405 names it: the request's `method`, or the one `_method` asked for (only a plain
// token is repeated back).
function verbName(verb: string, method: string): string {
  const upper = method.toUpperCase();
  if (verb === upper || (verb === 'GET' && upper === 'HEAD')) return method;
  return /^[A-Z][A-Z-]{0,31}$/.test(verb) ? `${verb} (from _method)` : 'The method given by _method';
}

const NO_IDS: readonly string[] = Object.freeze([]);

// Where the `at`-th non-empty segment is in `remainder`.
function positionOf(remainder: readonly string[], at: number): number {
  let seen = -1;
  for (let i = 0; i < remainder.length; i++) if (remainder[i] !== '' && ++seen === at) return i;
  return remainder.length;
}

// A 405 naming what the resource answers at this path, or everywhere when nothing answers here
// (an empty resource, a verb without a handler: as Pecan).
function notAllowed(view: RestView, own: readonly string[], ids: readonly string[], reason: string, explicit: boolean): HTTPError {
  let allow = allowedVerbs(view, own, ids, explicit);
  if (allow.length === 0) allow = resourceVerbs(view);
  const value = allow.join(', ');
  return new HTTPError(405, `${reason}; allowed: ${value}.`, { Allow: value });
}
