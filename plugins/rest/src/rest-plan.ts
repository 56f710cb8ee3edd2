import type { Request } from '@hickory/core';
import { fits, peekRoutingState, type DirectRoute, type Resolution, type RouteTable } from '@hickory/dispatch/kit';
import { HAND_OFF } from './hand-off.ts';
import { restFactsFor, type RestFacts } from './rest-facts.ts';
import { withoutEmpty } from './segments.ts';
import { exposedAt, GET_WORDS, verbHandler } from './select.ts';
import { HTTP_METHODS, mayCarryForm, requestVerb, type RequestVerb } from './verbs.ts';

/**
 * What answers each verb on one resource, by the shape of the remainder (none, or one or more
 * ids, possibly ending in a page's name), read once per controller. `undefined` in a slot: the
 * plan does not answer there (nothing does, which the full routing turns into a 405 or a
 * rescue, or the method is mounted with `route()` and may belong to another controller).
 */
interface RestPlan {
  readonly facts: RestFacts;
  /** GET `/`: `get_all`, `get`, then `index`. */
  readonly collection: Function | undefined;
  /** GET `/<id…>`: `get_one`, then `get`. */
  readonly member: Function | undefined;
  /** GET `/<id…>/<page>` by the last segment, for the pages the resource has (`null`: mounted). */
  readonly pages: ReadonlyMap<string, Function | null>;
  /** POST `/`. */
  readonly post: Function | undefined;
  /** Every other verb's method, filled in as verbs arrive (`null`: none, or mounted). */
  readonly verbs: Map<string, Function | null>;
  /** `_default`: may answer anything the handler's arity does not fit. */
  readonly rescueAlways: boolean;
  /** `_default` or `_lookup`: may answer a non-empty remainder the arity does not fit. */
  readonly rescueIds: boolean;
}

const plans = new WeakMap<object, RestPlan | null>();
const NO_IDS: readonly string[] = Object.freeze([]);

/**
 * `RestController.prototype._route`'s shortcut (dispatch's `directRoute`): REST routing by verb
 * and shape of the remainder, for the requests whose answer is a method of the resource itself
 * and known at once — what `routeResource` would answer, without building its choice and
 * without the walk's checking of a routed pair. Everything else (`_method` in a form body, a
 * refused `_method`, a nested resource or custom action named in the path, a hand-off from a
 * parent, OPTIONS without an `options` method, arguments that do not fit where `_lookup` or
 * `_default` may rescue, a 405) gives `undefined`, having changed nothing, and `_route` decides.
 *
 * @example
 * ```ts
 * routeAtOnce(books, routeTableOf(books)!, ['7'], request); // { fn: Books.prototype.get_one, remainder: ['7'], … }
 * ```
 */
export const routeAtOnce: DirectRoute = (controller, table, remainder, request) => {
  const plan = planFor(controller, table);
  if (plan === undefined) return undefined;
  const state = peekRoutingState(request);
  let ids = NO_IDS;
  if (state !== undefined) {
    if (state.get(HAND_OFF) !== undefined) return undefined;
    const given = state.parentIds;
    if (given !== undefined) {
      if (given.child !== controller || given.path !== request.path) return undefined;
      ids = given.ids;
    }
  }
  const method = request.method;
  let verb = 'GET';
  if (request.query_string !== '' || (method !== 'GET' && method !== 'HEAD')) {
    // A POST whose form body may carry `_method` waits for its body: the full routing does that.
    if (mayCarryForm(request.media_type) && method.toUpperCase() === 'POST') return undefined;
    // Never a promise here: only a form POST's body is waited for. A repeated `_method` throws, as there.
    const known = requestVerb(request) as RequestVerb;
    if (known.refused !== undefined) return undefined;
    verb = known.verb;
  }
  const own = withoutEmpty(remainder);
  if (own.length > 0 && namesOther(plan.facts, table, own)) return undefined;
  // A page (`/7/edit` → edit('7')), else the verb's method.
  const page = verb === 'GET' && own.length > 0 && plan.pages.size > 0 ? plan.pages.get(own[own.length - 1]!) : undefined;
  const fn = page !== undefined ? page : choose(plan, table, verb, own.length);
  if (fn === undefined || fn === null) return undefined;
  const mine = page === undefined ? own : own.slice(0, -1);
  const args = ids.length === 0 ? mine : [...ids, ...mine];
  // Arguments that do not fit give `_lookup`/`_default` their chance: the full routing decides.
  if ((plan.rescueAlways || (plan.rescueIds && own.length > 0)) && !fits(fn, args, !request.use_context_locals)) return undefined;
  if (state !== undefined) state.parentIds = undefined; // taken, as takeParentIds does
  const resolution: Resolution = { controller, table, fn, remainder: args, canonical: false };
  return resolution;
};

// True when a segment names a child controller (a nested resource, reached with or without ids)
// or the first or last names a custom action: REST's full routing handles those.
function namesOther(facts: RestFacts, table: RouteTable, own: readonly string[]): boolean {
  const actions = facts.view.actions;
  if (actions.size > 0 && (actions.has(own[0]!) || actions.has(own[own.length - 1]!))) return true;
  if (!facts.hasChildren) return false;
  for (const segment of own) if (table.find(segment)?.kind === 'child') return true;
  return false;
}

// The method for `verb` (a page apart) when the remainder has `count` segments.
function choose(plan: RestPlan, table: RouteTable, verb: string, count: number): Function | undefined {
  let fn: Function | null | undefined;
  switch (verb) {
    case 'GET':
      fn = count === 0 ? plan.collection : plan.member;
      break;
    case 'POST':
      // Below the collection only with a rest parameter (which depends on the request): the full routing.
      fn = count === 0 ? plan.post : undefined;
      break;
    default:
      fn = plan.verbs.get(verb);
      if (fn === undefined && HTTP_METHODS.has(verb)) plan.verbs.set(verb, (fn = ownMethod(table, verbHandler(plan.facts.view, verb), verbNames(verb)) ?? null));
  }
  return fn ?? undefined;
}

// The last resource routed and its plan: one resource usually takes most requests in a row.
let lastController: object | undefined;
let lastPlan: RestPlan | undefined;

function planFor(controller: object, table: RouteTable): RestPlan | undefined {
  if (controller === lastController) return lastPlan;
  let plan = plans.get(controller);
  if (plan === undefined) {
    // A custom-actions mistake throws here as in `_route`, and is not remembered (it throws again).
    const facts = restFactsFor(controller);
    plan = facts === undefined ? null : planOf(facts, table);
    plans.set(controller, plan);
  }
  lastController = controller;
  lastPlan = plan ?? undefined;
  return lastPlan;
}

function planOf(facts: RestFacts, table: RouteTable): RestPlan {
  const pages = new Map<string, Function | null>();
  for (const word of Object.keys(GET_WORDS)) {
    const fn = exposedAt(table, GET_WORDS[word]!);
    if (fn !== undefined) pages.set(word, ownMethod(table, fn, [GET_WORDS[word]!]) ?? null);
  }
  return {
    facts,
    collection: ownMethod(table, exposedAt(table, 'get_all') ?? exposedAt(table, 'get') ?? table.index, ['get_all', 'get', 'index']),
    member: ownMethod(table, exposedAt(table, 'get_one') ?? exposedAt(table, 'get'), ['get_one', 'get']),
    pages,
    post: ownMethod(table, exposedAt(table, 'post'), ['post']),
    verbs: new Map(),
    rescueAlways: table._default !== undefined,
    rescueIds: table._default !== undefined || table._lookup !== undefined,
  };
}

// The names `verbHandler` may have found a verb's method under.
function verbNames(verb: string): string[] {
  const name = verb.toLowerCase();
  return [`post_${name}`, name];
}

// `fn` when the table lists it under its own name (a method of the controller), `undefined` when
// it is missing or any of `names` that holds it is an explicit route (`route()` may mount another
// controller's method: dispatch then finds its owner).
function ownMethod(table: RouteTable, fn: Function | undefined, names: readonly string[]): Function | undefined {
  if (fn === undefined) return undefined;
  for (const name of names) if (table.isExplicit(name) && exposedAt(table, name) === fn) return undefined;
  return fn;
}
