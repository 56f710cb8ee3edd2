/**
 * `@hickory/dispatch/kit`: what plugins built on object dispatch use (REST, hooks, security, a
 * routing plugin of your own), apart from what applications import from `@hickory/dispatch`.
 * Stable like the main entry, but for plugin authors: the route tables and the walk, parameter
 * lists, the per-request {@link RoutingState}, the handler a lookup calls, walk trails, guards,
 * route-map annotations and the schema building blocks.
 *
 * @example
 * ```ts
 * import type { Request } from '@hickory/core';
 * import { routingState } from '@hickory/dispatch/kit';
 * class Tenants {
 *   orders = new OrdersController();
 *   // `/t/acme/orders/`: the tenant id is consumed here and given to the handler first.
 *   _route(remainder: readonly string[], request: Request) {
 *     routingState(request).addRoutingArgs(remainder.slice(0, 1));
 *     return [this.orders, remainder.slice(2)];
 *   }
 * }
 * ```
 */
// Route tables and the walk.
export { routeTableOf, isController } from './controller-tables.ts';
export type { RouteTable, ChildEntry, RouteEntry, MethodEntry } from './route-table.ts';
export { resolvePath } from './resolve.ts';
export { walk, fits, type Resolution, type WalkBudget } from './walk.ts';
export { directRoute, type DirectRoute } from './direct-route.ts';
export { splitPath } from './path.ts';
export { assertSegment, describeValue } from './names.ts';
export type { Awaitable } from './awaitable.ts';
// What routing knows about one request.
export { routingState, peekRoutingState, routingSlot, type RoutingState, type RoutingSlot, type ParentIds } from './routing-state.ts';
export { recordWalks, walkedControllers } from './walk-trail.ts';
export { guard, openGuards, type GuardCheck, type GuardOptions } from './guards.ts';
export { refuseLegacyDecorator } from './decorator.ts';
// The handler a lookup calls, and its parameters.
export { handlerCallOf, type HandlerCall } from './call.ts';
export { exposureOf, type Exposure } from './exposure.ts';
export { parametersOf, handlerParameters, parametersFor, type Parameter, type ParameterList } from './parameters.ts';
// The route map: a self-routing controller's own entries, a plugin's marks.
export { describeRoutes, type DescribeContext, type DescribedChild, type DescribedRoute, type RouteDescription } from './route-description.ts';
export { annotateRoutes, routeTargets, type RouteAnnotator, type RouteTarget } from './route-map.ts';
// Argument and body schemas.
export { isStandardSchema, describeSchema, type SchemaDescription } from './standard-schema.ts';
export { handlerSchemas, type HandlerSchemas, type ArgumentSchema } from './handler-schemas.ts';
export { invalidInputResponse } from './invalid-input.ts';
export { schemaInfo, type SchemaInfo } from './route-schemas.ts';
