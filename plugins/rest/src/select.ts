import type { Request } from '@hickory/core';
import { fits, handlerParameters, type ParameterList, type RouteTable } from '@hickory/dispatch/kit';
import type { CustomActions } from './custom-actions.ts';
import { HTTP_METHODS } from './verbs.ts';

/**
 * What REST routing sees of one controller.
 *
 * @example
 * ```ts
 * const view: RestView = { table: routeTableOf(books)!, actions: customActionsOf(books) };
 * ```
 */
export interface RestView {
  readonly table: RouteTable;
  readonly actions: CustomActions;
}

/**
 * What answers one verb at one path of a resource.
 *
 * @example
 * ```ts
 * const choice: Choice = chooseHandler(view, 'GET', ['7'], []); // { kind: 'call', … }
 * ```
 */
export type Choice =
  /** Call `fn` with these path arguments (parent ids first). */
  | { readonly kind: 'call'; readonly fn: Function; readonly args: readonly string[] }
  /** OPTIONS without an `options` method: 204 with `Allow`. */
  | { readonly kind: 'options' }
  /** Nothing answers this verb here. */
  | { readonly kind: 'none' };

const NONE: Choice = Object.freeze({ kind: 'none' });
const OPTIONS: Choice = Object.freeze({ kind: 'options' });

/**
 * Method names with a REST meaning: never reached as "a verb with a same-named method".
 *
 * @example
 * ```ts
 * REST_NAMES.has('get_one'); // true
 * ```
 */
export const REST_NAMES: ReadonlySet<string> = new Set(['get_one', 'get_all', 'get', 'new', 'edit', 'post', 'put', 'get_delete', 'delete', 'index']);

const GET_WORDS: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  new: 'new',
  edit: 'edit',
  delete: 'get_delete',
});

/**
 * The exposed method at segment `name` of a controller's table, or `undefined`.
 *
 * @example
 * ```ts
 * exposedAt(routeTableOf(books)!, 'get_one'); // Books.prototype.get_one
 * ```
 */
export function exposedAt(table: RouteTable, name: string): Function | undefined {
  const entry = table.find(name);
  return entry?.kind === 'method' ? entry.fn : undefined;
}

/**
 * Chooses what answers `verb` (HEAD already turned into GET) for the resource's own path
 * segments `own` (empty segments removed), with `ids` the parent resources' ids:
 * - a custom action (the last segment) answers its listed verbs only;
 * - GET: `/` → `get_all`, `get` (then `index`); `/new`, `/<id>/edit`, `/<id>/delete` →
 *   `new`, `edit`, `get_delete`; `/<id>` → `get_one`, `get`;
 * - POST `/` → `post`; PUT and DELETE `/<id>` → `put`, `delete`;
 * - OPTIONS → `options`, else the `Allow` answer; any other verb → its same-named method.
 *
 * @example
 * ```ts
 * chooseHandler(view, 'GET', ['7', 'edit'], ['1']); // { kind: 'call', fn: edit, args: ['1', '7'] }
 * ```
 */
export function chooseHandler(view: RestView, verb: string, own: readonly string[], ids: readonly string[], request?: Request): Choice {
  const { table } = view;
  const last = own.length > 0 ? own[own.length - 1]! : undefined;
  const action = last === undefined ? undefined : view.actions.get(last);
  if (action !== undefined) {
    if (action.verbs.has(verb)) return call(action.fn, ids, own.slice(0, -1));
    return verb === 'OPTIONS' ? OPTIONS : NONE;
  }
  switch (verb) {
    case 'GET': {
      if (last === undefined) return call(exposedAt(table, 'get_all') ?? exposedAt(table, 'get') ?? table.index, ids, own);
      const word = GET_WORDS[last];
      const page = word === undefined ? undefined : exposedAt(table, word);
      if (page !== undefined) return call(page, ids, own.slice(0, -1));
      return call(exposedAt(table, 'get_one') ?? exposedAt(table, 'get'), ids, own);
    }
    case 'POST': {
      // POST creates in the collection; below it only when `post` takes a rest parameter.
      const fn = exposedAt(table, 'post');
      return fn !== undefined && (own.length === 0 || handlerParameters(fn, request).rest) ? call(fn, ids, own) : NONE;
    }
    case 'PUT':
    case 'DELETE': {
      // PUT and DELETE address a record; on the collection only when the method needs no id.
      const fn = exposedAt(table, verb === 'PUT' ? 'put' : 'delete');
      return fn !== undefined && (own.length > 0 || requiredPositional(fn, request) <= ids.length) ? call(fn, ids, own) : NONE;
    }
    case 'OPTIONS': {
      const fn = exposedAt(table, 'options');
      return fn === undefined ? OPTIONS : call(fn, ids, own);
    }
    default: {
      const name = verb.toLowerCase();
      if (!HTTP_METHODS.has(verb) || REST_NAMES.has(name) || view.actions.has(name)) return NONE;
      return call(exposedAt(table, name), ids, own);
    }
  }
}

// Preferred order of the Allow header; then every other method Node knows, alphabetically.
const ALLOW_ORDER: readonly string[] = [
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  ...[...HTTP_METHODS].filter((m) => !['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(m)).sort(),
];

/**
 * The verbs that have a handler at this path (by trying each one with {@link chooseHandler}; a
 * handler that cannot take the path's segments does not count). GET brings HEAD. Empty when no
 * verb answers (the path is not found); otherwise OPTIONS is listed last.
 *
 * @example
 * ```ts
 * allowedVerbs(view, ['7'], []); // ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']
 * ```
 */
export function allowedVerbs(view: RestView, own: readonly string[], ids: readonly string[], request?: Request): string[] {
  const allowed: string[] = [];
  for (const verb of ALLOW_ORDER) {
    const choice = chooseHandler(view, verb, own, ids, request);
    if (choice.kind !== 'call' || !fits(choice.fn, choice.args, request)) continue;
    allowed.push(verb);
    if (verb === 'GET') allowed.push('HEAD');
  }
  if (allowed.length > 0 || chooseHandler(view, 'OPTIONS', own, ids, request).kind === 'call') allowed.push('OPTIONS');
  return allowed;
}

/**
 * The verbs the resource answers at some path (what a 405 lists when nothing answers at the
 * requested one): GET and HEAD for any GET handler or page, each other verb with its method, the
 * custom actions' verbs, and OPTIONS.
 *
 * @example
 * ```ts
 * resourceVerbs(view); // ['GET', 'HEAD', 'POST', 'OPTIONS']
 * ```
 */
export function resourceVerbs(view: RestView): string[] {
  const { table } = view;
  const has = (name: string) => exposedAt(table, name) !== undefined;
  const verbs = new Set<string>();
  if (table.index !== undefined || ['get_all', 'get', 'get_one', 'new', 'edit', 'get_delete'].some(has)) verbs.add('GET');
  for (const verb of ALLOW_ORDER) {
    const name = verb.toLowerCase();
    if (verb !== 'GET' && has(name) && (!REST_NAMES.has(name) || name === 'post' || name === 'put' || name === 'delete')) verbs.add(verb);
  }
  for (const action of view.actions.values()) for (const verb of action.verbs) verbs.add(verb);
  const ordered = ALLOW_ORDER.filter((verb) => verbs.has(verb)).flatMap((verb) => (verb === 'GET' ? ['GET', 'HEAD'] : [verb]));
  return [...ordered, 'OPTIONS'];
}

/**
 * True when a handler exists for some verb at this path but cannot take its segments (too many
 * ids): the path is what is wrong (404), not the method.
 *
 * @example
 * ```ts
 * tooManySegments(view, ['7', '8', '9'], []); // true when get_one takes one id
 * ```
 */
export function tooManySegments(view: RestView, own: readonly string[], ids: readonly string[], request?: Request): boolean {
  for (const verb of ALLOW_ORDER) {
    const choice = chooseHandler(view, verb, own, ids, request);
    if (choice.kind === 'call' && !fits(choice.fn, choice.args, request)) return true;
  }
  return false;
}

/**
 * How many positional parameters of `fn` have no default (the ids it cannot do without).
 *
 * @example
 * ```ts
 * requiredPositional(function get_all(author_id = undefined) {}); // 0
 * ```
 */
export function requiredPositional(fn: Function, request?: Request): number {
  return requiredCount(handlerParameters(fn, request));
}

/**
 * {@link requiredPositional} of a parameter list (the route map reads one without a request).
 *
 * @example
 * ```ts
 * requiredCount(parametersFor(function get_one(req, res, id) {}, true)); // 1
 * ```
 */
export function requiredCount(params: ParameterList): number {
  let count = 0;
  for (const p of params.list) if (p.required && !p.rest && p.name !== 'kwargs') count++;
  return count;
}

function call(fn: Function | undefined, ids: readonly string[], own: readonly string[]): Choice {
  if (fn === undefined) return NONE;
  return { kind: 'call', fn, args: ids.length === 0 ? own : [...ids, ...own] };
}
