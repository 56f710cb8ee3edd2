import { assertSegment, routeTableOf, type RouteTable } from '@hickory/dispatch/kit';
import { restError } from './errors.ts';
import { HTTP_METHODS } from './verbs.ts';

/**
 * One custom action: for each upper-case HTTP method it answers (GET brings HEAD), the exposed
 * method called with the ids: `<verb>_<action>` when the class has one (`get_count` for GET
 * `count`), else the method named after the action (as Pecan).
 *
 * @example
 * ```ts
 * const action: CustomAction = new Map([['POST', Books.prototype.checkout]]);
 * ```
 */
type CustomAction = ReadonlyMap<string, Function>;

/**
 * The custom actions of a controller class, by segment.
 *
 * @example
 * ```ts
 * const actions: CustomActions = customActionsOf(new Books());
 * ```
 */
export type CustomActions = ReadonlyMap<string, CustomAction>;

/**
 * Segments REST routing gives a meaning of its own (GET `/<id>/edit` and friends).
 *
 * @example
 * ```ts
 * RESERVED_ACTIONS.has('edit'); // true: not usable as a custom action
 * ```
 */
const RESERVED_ACTIONS: ReadonlySet<string> = new Set(['new', 'edit', 'delete']);

const NONE: CustomActions = new Map();

// What a class declares: the actions that have a method, and the first entry naming none (kept
// for ready(), which refuses it; a class only a `_lookup` makes ignores it, as Pecan does).
interface Declared {
  readonly actions: CustomActions;
  readonly unanswered: Error | undefined;
}

const NOTHING_DECLARED: Declared = { actions: NONE, unanswered: undefined };
const byPrototype = new WeakMap<object, Declared>();

/**
 * The custom actions of a `RestController`, read once per class from its static
 * `_custom_actions` (the nearest class declaring it wins) and checked: each verb an HTTP method,
 * answered by an exposed `<verb>_<name>` method or by the exposed method at the action's segment
 * (an identifier, or a segment given with `route()`). Mistakes throw a coded error naming the fix,
 * except a verb that names no method: that one is left out (as Pecan, whose lookup of it finds
 * nothing), and {@link checkCustomActions} refuses it at `ready()` for the controllers it reaches.
 *
 * @example
 * ```ts
 * class Books extends RestController {
 *   static _custom_actions = { checkout: ['POST'] };
 *   @expose('json') checkout(id: string) { return { id }; }
 * }
 * customActionsOf(new Books()).get('checkout')?.get('POST'); // Books.prototype.checkout
 * ```
 */
export function customActionsOf(controller: object): CustomActions {
  return declaredOf(controller).actions;
}

/**
 * {@link customActionsOf}, refusing an action whose verb names no method
 * (`HICKORY_ERR_REST_ACTION_METHOD`): for the controllers `ready()` reaches.
 *
 * @example
 * ```ts
 * checkCustomActions(new Books()); // throws when `_custom_actions` names a method Books lacks
 * ```
 */
export function checkCustomActions(controller: object): void {
  const { unanswered } = declaredOf(controller);
  if (unanswered !== undefined) throw unanswered;
}

function declaredOf(controller: object): Declared {
  const proto = Object.getPrototypeOf(controller) as object | null;
  if (proto === null) return NOTHING_DECLARED;
  let declared = byPrototype.get(proto);
  if (declared === undefined) {
    declared = readActions(controller, proto);
    byPrototype.set(proto, declared);
  }
  return declared;
}

function readActions(controller: object, proto: object): Declared {
  const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as unknown;
  if (typeof ctor !== 'function') return NOTHING_DECLARED;
  const owner = nameOf(ctor);
  const declared = staticValue(ctor, owner);
  if (declared === undefined || declared === null) return NOTHING_DECLARED;
  if (typeof declared !== 'object' || Array.isArray(declared)) throw restError('HICKORY_ERR_REST_ACTIONS_SHAPE', owner, describe(declared));
  const table = routeTableOf(controller);
  const actions = new Map<string, CustomAction>();
  let unanswered: Error | undefined;
  for (const name of Object.keys(declared)) {
    checkName(owner, name);
    const byVerb = new Map<string, Function>();
    for (const verb of readVerbs(owner, name, (declared as Record<string, unknown>)[name])) {
      // HEAD is answered by what answers GET.
      const own = `${verb === 'HEAD' ? 'get' : verb.toLowerCase()}_${name}`;
      const fn = exposedMethod(table, own) ?? exposedMethod(table, name);
      if (fn === undefined) unanswered ??= restError('HICKORY_ERR_REST_ACTION_METHOD', owner, name, verb, own, name, name);
      else byVerb.set(verb, fn);
    }
    // An action no verb of which has a method is no action: its segment routes as any other.
    if (byVerb.size > 0) actions.set(name, byVerb);
  }
  return { actions, unanswered };
}

function exposedMethod(table: RouteTable | undefined, name: string): Function | undefined {
  const entry = table?.find(name);
  return entry?.kind === 'method' ? entry.fn : undefined;
}

// Read through descriptors up the constructor chain, so no getter runs.
function staticValue(ctor: Function, owner: string): unknown {
  for (let c: object | null = ctor; c !== null && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(c, '_custom_actions');
    if (descriptor === undefined) continue;
    if (!('value' in descriptor)) throw restError('HICKORY_ERR_REST_ACTIONS_SHAPE', owner, 'an accessor');
    return descriptor.value;
  }
  return undefined;
}

function checkName(owner: string, name: string): void {
  if (RESERVED_ACTIONS.has(name)) {
    throw restError('HICKORY_ERR_REST_ACTION_NAME', owner, JSON.stringify(name), 'new, edit and delete already route GET /new, /<id>/edit and /<id>/delete; choose another name');
  }
  try {
    assertSegment(name);
  } catch (error) {
    throw restError('HICKORY_ERR_REST_ACTION_NAME', owner, JSON.stringify(name), (error as Error).message, error);
  }
}

function readVerbs(owner: string, name: string, value: unknown): readonly string[] {
  if (!Array.isArray(value) || value.length === 0) throw restError('HICKORY_ERR_REST_ACTION_VERBS', owner, name, describe(value));
  const verbs: string[] = [];
  for (const item of value) {
    const verb = typeof item === 'string' ? item.toUpperCase() : undefined;
    if (verb === undefined || !HTTP_METHODS.has(verb)) throw restError('HICKORY_ERR_REST_ACTION_VERB', owner, name, describe(item));
    if (!verbs.includes(verb)) verbs.push(verb);
    if (verb === 'GET' && !verbs.includes('HEAD')) verbs.push('HEAD');
  }
  return verbs;
}

function nameOf(ctor: Function): string {
  const name = Object.getOwnPropertyDescriptor(ctor, 'name')?.value as unknown;
  return typeof name === 'string' && name ? name : '(anonymous class)';
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
