import { fits, parametersFor, type ParameterList, type RouteTable } from '@hickory/dispatch/kit';
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
const REST_NAMES: ReadonlySet<string> = new Set(['get_one', 'get_all', 'get', 'new', 'edit', 'post', 'put', 'get_delete', 'delete', 'index']);

/**
 * The GET pages by the last segment of the path that names them: `/new`, `/<id>/edit`,
 * `/<id>/delete` → the methods `new`, `edit`, `get_delete`.
 *
 * @example
 * ```ts
 * GET_WORDS['delete']; // 'get_delete'
 * ```
 */
export const GET_WORDS: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
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
 * segments `own` (empty segments removed), with `ids` the parent resources' ids (as Pecan):
 * - a custom action answers its listed verbs only; its name is the first segment for PUT and
 *   DELETE (`PUT /update/7`), the last for any other verb (`POST /7/checkout`); a path whose
 *   first or last segment names an action answers nothing else;
 * - GET: `/` → `get_all`, `get` (then `index`); `/new`, `/<id>/edit`, `/<id>/delete` →
 *   `new`, `edit`, `get_delete`; `/<id>` → `get_one`, `get`;
 * - POST `/` → `post`; PUT → `put`; DELETE → `post_delete`, `delete` (a method that needs
 *   the id the path lacks answers 400 when called, as a missing parameter does);
 * - OPTIONS → `post_options`, `options`, else the `Allow` answer; any other HTTP method →
 *   `post_<verb>`, then `<verb>` (PATCH → `post_patch`, `patch`).
 *
 * `explicit` is true for an app without context locals (`use_context_locals: false`): the
 * request and response parameters are not path arguments (dispatch's `fits` reads it the same way).
 *
 * @example
 * ```ts
 * chooseHandler(view, 'GET', ['7', 'edit'], ['1']); // { kind: 'call', fn: edit, args: ['1', '7'] }
 * ```
 */
export function chooseHandler(view: RestView, verb: string, own: readonly string[], ids: readonly string[], explicit = false): Choice {
  const { table } = view;
  const last = own.length > 0 ? own[own.length - 1]! : undefined;
  if (view.actions.size > 0 && last !== undefined) {
    const first = verb === 'PUT' || verb === 'DELETE';
    const fn = view.actions.get(first ? own[0]! : last)?.get(verb);
    if (fn !== undefined) return call(fn, ids, first ? own.slice(1) : own.slice(0, -1));
    // A segment naming an action is never another handler's argument: only the actions' verbs
    // answer there (`PUT /7/checkout` → 405 where checkout is POST only).
    if (verb !== 'OPTIONS' && (view.actions.has(own[0]!) || view.actions.has(last))) return NONE;
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
      return fn !== undefined && (own.length === 0 || parametersFor(fn, explicit).rest) ? call(fn, ids, own) : NONE;
    }
    case 'OPTIONS': {
      const fn = verbHandler(view, verb);
      return fn === undefined ? OPTIONS : call(fn, ids, own);
    }
    default:
      return call(verbHandler(view, verb), ids, own);
  }
}

/**
 * The method that answers `verb` (not GET) on the resource wherever no custom action does:
 * `post`, `put`, then `post_<verb>` before `<verb>` for DELETE, OPTIONS and any other HTTP
 * method Node knows (as Pecan). A name with a REST meaning or a custom action's is never a verb's.
 *
 * @example
 * ```ts
 * verbHandler(view, 'PATCH'); // Docs.prototype.post_patch, else Docs.prototype.patch
 * ```
 */
export function verbHandler(view: RestView, verb: string): Function | undefined {
  if (verb === 'POST') return exposedAt(view.table, 'post');
  if (verb === 'PUT') return exposedAt(view.table, 'put');
  if (!HTTP_METHODS.has(verb) || verb === 'GET' || verb === 'HEAD') return undefined;
  const name = verb.toLowerCase();
  const own = `post_${name}`;
  if (!view.actions.has(own)) {
    const fn = exposedAt(view.table, own);
    if (fn !== undefined) return fn;
  }
  return name === 'delete' || (!REST_NAMES.has(name) && !view.actions.has(name)) ? exposedAt(view.table, name) : undefined;
}

// Preferred order of the Allow header; then every other method Node knows, alphabetically.
const ALLOW_ORDER: readonly string[] = [
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  ...[...HTTP_METHODS].filter((m) => !['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(m)).sort(),
];

/**
 * The verbs that have a handler at this path (by trying each one with {@link chooseHandler}; a
 * handler that cannot take the path's segments does not count, nor a PUT or DELETE that lacks
 * the record's id there). GET brings HEAD. Empty when no verb answers; otherwise OPTIONS is
 * listed last. `explicit` as for {@link chooseHandler}.
 *
 * @example
 * ```ts
 * allowedVerbs(view, ['7'], []); // ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']
 * ```
 */
export function allowedVerbs(view: RestView, own: readonly string[], ids: readonly string[], explicit = false): string[] {
  const allowed: string[] = [];
  for (const verb of ALLOW_ORDER) {
    const choice = chooseHandler(view, verb, own, ids, explicit);
    if (choice.kind !== 'call' || !fits(choice.fn, choice.args, explicit)) continue;
    // PUT and DELETE address a record: on the collection, a method that needs the id answers 400.
    if ((verb === 'PUT' || verb === 'DELETE') && choice.args.length === ids.length && requiredPositional(choice.fn, explicit) > ids.length) continue;
    allowed.push(verb);
    if (verb === 'GET') allowed.push('HEAD');
  }
  if (allowed.length > 0 || chooseHandler(view, 'OPTIONS', own, ids, explicit).kind === 'call') allowed.push('OPTIONS');
  return allowed;
}

/**
 * The verbs the resource answers at some path (what a 405 lists when nothing answers at the
 * requested one, as Pecan): GET and HEAD for any GET handler or page, each other verb with its
 * method (`post_<verb>` too), the custom actions' verbs, and OPTIONS.
 *
 * @example
 * ```ts
 * resourceVerbs(view); // ['GET', 'HEAD', 'POST', 'OPTIONS']
 * ```
 */
export function resourceVerbs(view: RestView): string[] {
  const { table } = view;
  const verbs = new Set<string>();
  if (table.index !== undefined || ['get_all', 'get', 'get_one', 'new', 'edit', 'get_delete'].some((name) => exposedAt(table, name) !== undefined)) verbs.add('GET');
  for (const verb of ALLOW_ORDER) if (verb !== 'GET' && verbHandler(view, verb) !== undefined) verbs.add(verb);
  for (const action of view.actions.values()) for (const verb of action.keys()) verbs.add(verb);
  const ordered = ALLOW_ORDER.filter((verb) => verbs.has(verb)).flatMap((verb) => (verb === 'GET' ? ['GET', 'HEAD'] : [verb]));
  return [...ordered, 'OPTIONS'];
}

/**
 * How many positional parameters of `fn` have no default (the ids it cannot do without).
 * `explicit` as for {@link chooseHandler}.
 *
 * @example
 * ```ts
 * requiredPositional(function get_all(author_id = undefined) {}); // 0
 * ```
 */
export function requiredPositional(fn: Function, explicit = false): number {
  return requiredCount(parametersFor(fn, explicit));
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
