import { parse, type Node, type Pattern } from 'acorn';
import type { Request } from '@hickory/core';
import { wrappedOriginal, wrapPlanOf, type WrapPlan } from './wrapped.ts';

/** One declared parameter of a controller method. */
export interface Parameter {
  /** The name, or `null` for a destructuring pattern (filled by path segments only). */
  readonly name: string | null;
  /** True when it has no default value (a missing value is then a 400). */
  readonly required: boolean;
  /** True for `...rest`: it takes the remaining path segments. */
  readonly rest: boolean;
  /** True when a wrapper passes it (`wraps(original, { supplies })`): nothing from the request fills it. */
  readonly supplied?: boolean;
}

/** The parameters of a function, read once from its source. */
export interface ParameterList {
  readonly list: readonly Parameter[];
  /** How many path segments the function can take positionally (rest: unlimited). */
  readonly positional: number;
  /** True when a rest parameter takes any number of remaining segments. */
  readonly rest: boolean;
  /** The names of the named parameters (these variables never go to `kwargs`). */
  readonly names: ReadonlySet<string>;
  /**
   * True when the function is a wrapper made with `wraps(original, { kwargs: true })` (at any
   * layer): it takes one more argument, last, every request variable (mapped or not).
   */
  readonly variablesLast: boolean;
}

const cache = new WeakMap<Function, ParameterList>();

/**
 * The parameter list of a function, parsed once from its source with a JavaScript parser
 * (defaults, rest, destructuring, comments, async, arrows, methods and compiled TypeScript) and
 * cached. A parameter named `kwargs` receives the remaining variables.
 *
 * @example
 * ```ts
 * parametersOf(function m(a, b = 'x,y', ...rest) {}).list;
 * // [{ name: 'a', required: true, rest: false }, { name: 'b', required: false, … }, { name: 'rest', rest: true, … }]
 * ```
 */
export function parametersOf(fn: Function): ParameterList {
  let params = cache.get(fn);
  // A wrapper made with wraps() takes the parameters of the function it wraps, as its plan says.
  if (!params) cache.set(fn, (params = planned(rawParameters(wrappedOriginal(fn)), wrapPlanOf(fn))));
  return params;
}

const explicitCache = new WeakMap<Function, ParameterList>();

/**
 * The parameters a request fills: all of them, or — when the app runs with
 * `use_context_locals: false` — those after the first two, which receive the request and the
 * response (a leading `...rest` takes everything, the two included).
 *
 * @example
 * ```ts
 * handlerParameters(function show(req, res, id) {}, request).list; // [{ name: 'id', … }] without context locals
 * ```
 */
export function handlerParameters(fn: Function, request: Request | undefined): ParameterList {
  return parametersFor(fn, request !== undefined && !request.use_context_locals);
}

/**
 * {@link handlerParameters} for a mode known without a request (checks at `ready()`, tooling):
 * `explicit` is true for `use_context_locals: false`.
 *
 * @example
 * ```ts
 * parametersFor(function show(req, res, id) {}, true).list; // [{ name: 'id', … }]
 * ```
 */
export function parametersFor(fn: Function, explicit: boolean): ParameterList {
  if (!explicit) return parametersOf(fn);
  let params = explicitCache.get(fn);
  if (!params) {
    const all = rawParameters(wrappedOriginal(fn));
    const leadingRest = all.length > 0 && all[0]!.rest;
    // The request and the response come first; a wrapper's inserted arguments after them.
    explicitCache.set(fn, (params = planned(leadingRest ? [...all] : all.slice(2), wrapPlanOf(fn))));
  }
  return params;
}

const rawCache = new WeakMap<Function, readonly Parameter[]>();

function rawParameters(fn: Function): readonly Parameter[] {
  let list = rawCache.get(fn);
  if (!list) rawCache.set(fn, (list = readParameters(fn)));
  return list;
}

// What a wrapper's caller fills: the original's parameters after those the wrappers insert, the
// supplied ones marked (no path segment, no variable, never missing).
function planned(all: readonly Parameter[], plan: WrapPlan): ParameterList {
  const list = plan.inserts > 0 ? all.slice(plan.inserts) : [...all];
  if (plan.supplies.size > 0) {
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (p.name !== null && !p.rest && plan.supplies.has(p.name)) list[i] = { ...p, required: false, supplied: true };
    }
  }
  return summarize(list, plan.kwargs);
}

function summarize(list: Parameter[], variablesLast: boolean): ParameterList {
  let positional = 0;
  let rest = false;
  const names = new Set<string>();
  for (const p of list) {
    if (p.name !== null) names.add(p.name);
    if (p.rest) rest = true;
    else if (p.name !== 'kwargs' && p.supplied !== true) positional++;
  }
  return Object.freeze({ list: Object.freeze(list), positional, rest, names, variablesLast });
}

function readParameters(fn: Function): Parameter[] {
  const source = Function.prototype.toString.call(fn);
  const node = functionNode(source);
  if (!node) {
    // Native or bound functions show no source: their declared length is all we know.
    return Array.from({ length: fn.length }, () => ({ name: null, required: false, rest: false }));
  }
  return node.params.map(describeParameter);
}

interface FunctionLike extends Node {
  params: Pattern[];
}

// A method's source (`m(a){}`, `async *m(){}`, `"a-b"(){}`) is not an expression by itself:
// try it as an expression, as an object member, then as a class member.
function functionNode(source: string): FunctionLike | undefined {
  const attempts: Array<[string, (program: any) => any]> = [
    [`(${source}\n)`, (p) => p.body[0].expression],
    [`({${source}\n})`, (p) => p.body[0].expression.properties[0].value],
    [`(class{${source}\n})`, (p) => p.body[0].expression.body.body[0].value],
  ];
  for (const [text, pick] of attempts) {
    try {
      const node = pick(parse(text, { ecmaVersion: 'latest' }));
      if (node && Array.isArray(node.params)) return node as FunctionLike;
    } catch {
      // try the next shape
    }
  }
  return undefined;
}

function describeParameter(node: Pattern): Parameter {
  switch (node.type) {
    case 'Identifier':
      return { name: node.name, required: true, rest: false };
    case 'AssignmentPattern':
      return { name: node.left.type === 'Identifier' ? node.left.name : null, required: false, rest: false };
    case 'RestElement':
      return { name: node.argument.type === 'Identifier' ? node.argument.name : null, required: false, rest: true };
    default:
      return { name: null, required: true, rest: false };
  }
}
