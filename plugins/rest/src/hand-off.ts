import { routingSlot, type RoutingState } from '@hickory/dispatch/kit';

/**
 * What a resource tells the nested resource it routes into, beside the ids: whether the path
 * named it right after the parent, before the ids the parent takes (`POST /foos/bars`), and
 * whether a `_lookup` or `_default` of a resource above may still answer.
 *
 * @example
 * ```ts
 * routingState(request).set(HAND_OFF, { child: books, path: request.path, skipped: true, rescuableAbove: false });
 * ```
 */
export interface HandOff {
  readonly child: object;
  readonly path: string;
  readonly skipped: boolean;
  readonly rescuableAbove: boolean;
}

/**
 * The request's {@link HandOff}, in its routing state, until the nested resource takes it.
 *
 * @example
 * ```ts
 * peekRoutingState(request)?.get(HAND_OFF); // undefined unless a parent handed one over
 * ```
 */
export const HAND_OFF = routingSlot<HandOff | undefined>('rest.hand-off');

/**
 * The hand-off meant for `controller` routing `path`, taken (a stale one is dropped).
 *
 * @example
 * ```ts
 * const handOff = takeHandOff(state, this, request.path);
 * ```
 */
export function takeHandOff(state: RoutingState, controller: object, path: string): HandOff | undefined {
  const given = state.get(HAND_OFF);
  if (given === undefined) return undefined;
  state.set(HAND_OFF, undefined);
  return given.child === controller && given.path === path ? given : undefined;
}
