/**
 * `@hickory/dispatch`: object dispatch. Requests are routed by walking a tree of controller
 * objects; `expose()` marks what a URL may reach (see `dispatch.ts` for the stages of one
 * request). This entry is what applications use; plugins built on dispatch (REST, hooks) find
 * the route tables, the walk and the per-request routing state in `@hickory/dispatch/kit`.
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
export { routeTo, type MethodName, type RoutedMethod } from './route-to.ts';
export type { MethodMarker } from './decorator.ts';
export type { Rendering } from './exposure.ts';
export { renderingFor } from './call.ts';
export { override_template } from './override-template.ts';
export { wraps, parameterIndex, type WrapsOptions, type WrapperArgs } from './wraps.ts';
export type { ArgumentSchemas, ArgsOf, BodyOf, SchemaMarker } from './schema-types.ts';
export { InvalidInput } from './invalid-input.ts';
export type { PlainIssue } from './issues.ts';
export { DISPATCH_ERRORS, type DispatchErrorCode } from './errors.ts';
export { describeRoutes, type DescribeContext, type DescribedChild, type DescribedRoute, type RouteDescription } from './route-description.ts';
export { routeMap, type RouteInfo, type RouteMapMode, type MethodHandlerInfo } from './route-map.ts';
export { schemaLabel } from './route-schemas.ts';
export type { SchemaDescription } from './standard-schema.ts';
export { openApiDocument, type OpenApiOptions } from './openapi.ts';
export type { OpenApiConfig, OpenApiSecurityScheme } from './openapi-config.ts';
