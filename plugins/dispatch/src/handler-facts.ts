import { exposureOf, type Exposure } from './exposure.ts';
import { parametersOf, type ParameterList } from './parameters.ts';
import type { ResponseSerializer } from './response-serializer.ts';

/**
 * What every call of one handler needs from the registries, gathered in one record that the
 * select stage keeps per function: a request then reads it with one look-up (the select stage's)
 * instead of one per registry (exposure, parameters, response serializer — a `WeakMap` read each).
 * The parameters and the serializer are filled by the first request that needs them.
 */
export interface HandlerFacts {
  /** The handler's exposure record (the registry's own: an exposure stacked later shows here too). */
  readonly exposure: Exposure | undefined;
  /** Its parameter list, once a request mapped its arguments. */
  parameters: ParameterList | undefined;
  /** Its compiled response serializer (`null`: it declares none), once a request rendered JSON. */
  serializer: ResponseSerializer | null | undefined;
}

/**
 * A new {@link HandlerFacts} for `fn` (whose `exposure` the caller may have read already), with
 * nothing filled yet.
 *
 * @example
 * ```ts
 * const facts = handlerFacts(Books.prototype.show);
 * facts.exposure?.status; // 201 for expose({ status: 201 })
 * ```
 */
export function handlerFacts(fn: Function, exposure: Exposure | undefined = exposureOf(fn)): HandlerFacts {
  return { exposure, parameters: undefined, serializer: undefined };
}

/**
 * The parameter list of the handler `facts` describe (`parametersOf`), read once.
 *
 * @example
 * ```ts
 * parametersFrom(facts, Books.prototype.show).list.length; // 1
 * ```
 */
export function parametersFrom(facts: HandlerFacts, fn: Function): ParameterList {
  return (facts.parameters ??= parametersOf(fn));
}
