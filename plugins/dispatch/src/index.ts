/**
 * `@hickory/dispatch`: object dispatch. Requests are routed by walking a tree of controller
 * objects; `expose()` marks what a URL may reach. The lower-level pieces (route tables, the walk,
 * parameter lists, argument mapping, calling an exposed method) are exported for plugins built
 * on top, such as REST.
 *
 * @example
 * ```ts
 * import { dispatchPlugin, expose } from '@hickory/dispatch';
 * class Root { @expose() index() { return 'Hello'; } }
 * const app = createKernel({ root: new Root() }).use(dispatchPlugin);
 * ```
 */
export { dispatchPlugin } from './plugin.ts';
export { expose, type ExposeOptions } from './expose.ts';
export { when, type WhenOptions } from './when.ts';
export { route } from './route.ts';
export type { MethodMarker } from './decorator.ts';
export { exposureOf, renderingsOf, HTML_RENDERING, type Exposure, type Rendering, type WhenLink } from './exposure.ts';
export { routeTableOf, isController, RouteTable, ChildEntry, type RouteEntry, type MethodEntry } from './route-table.ts';
export { parametersOf, handlerParameters, parametersFor, type Parameter, type ParameterList } from './parameters.ts';
export { mapArguments, variablesOf } from './arguments.ts';
export { resolvePath } from './resolve.ts';
export { walk, fits, MAX_LOOKUPS, type Resolution, type WalkBudget } from './walk.ts';
export { splitPath, splitExtension, EXTENSION_TYPES, MAX_SEGMENTS, MAX_SEGMENT_BYTES, type PathExtension } from './path.ts';
export { negotiate } from './negotiate.ts';
export { selectHandler, allowedMethods, type Handler } from './select.ts';
export { renderValue } from './render.ts';
export { callExposed, renderingFor, handlerCallOf, type HandlerCall } from './call.ts';
export { routeRequest, type DispatchSettings } from './dispatch.ts';
export { checkControllerTree } from './check.ts';
export { isRoutableName, assertSegment, describeValue, SPECIAL_NAMES } from './names.ts';
export { DISPATCH_ERRORS, dispatchError, type DispatchErrorCode } from './errors.ts';
export { RoutingState, routingState, peekRoutingState, routingSlot, type RoutingSlot, type ParentIds } from './routing-state.ts';
export type { Awaitable } from './awaitable.ts';
export { recordWalks, walkedControllers } from './walk-trail.ts';
export { guard, openGuards, guardsDeclared, type GuardCheck } from './guards.ts';
export { describeRoutes, namePlaceholders, routeDescriptionOf, type DescribeContext, type DescribedChild, type DescribedRoute, type RouteDescription } from './route-description.ts';
export { annotateRoutes, routeMap, routeTargets, type RouteAnnotator, type RouteInfo, type RouteMapMode, type RouteTarget, type MethodHandlerInfo } from './route-map.ts';
export { schemaInfo, schemaLabel, type SchemaInfo } from './route-schemas.ts';
export { openApiDocument, type OpenApiOptions } from './openapi.ts';
export type { ArgumentSchemas, ArgsOf, BodyOf, SchemaMarker } from './schema-types.ts';
export { isStandardSchema, describeSchema, type SchemaDescription } from './standard-schema.ts';
export { handlerSchemas, type HandlerSchemas, type ArgumentSchema } from './handler-schemas.ts';
export { InvalidInput, invalidInputResponse } from './invalid-input.ts';
export { plainIssues, type PlainIssue } from './issues.ts';
