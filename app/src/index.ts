/**
 * `@hickory/app`: the whole framework in one import. `createApp()` is a kernel with every
 * first-party plugin in use; the rest re-exports what applications import from the packages
 * (their main entries; the plugin authors' kits and the CLI are not part of it).
 *
 * @example
 * ```ts
 * import { createApp, expose } from '@hickory/app';
 * class Root { @expose() index() { return 'Hello'; } }
 * await createApp({ root: new Root() }).listen({ port: 8080 });
 * ```
 */
export { createApp, type AppConfig, type PluginEntry } from './create-app.ts';
export { App } from './app.ts';
export * from '@hickory/core';
export * from '@hickory/hooks';
export * from '@hickory/multipart';
export * from '@hickory/static';
export * from '@hickory/rate-limit';
export * from '@hickory/health';
export * from '@hickory/cors';
export * from '@hickory/security-headers';
export * from '@hickory/otel';
export * from '@hickory/openapi';
export * from '@hickory/session';
export * from '@hickory/csrf';
export * from '@hickory/broadcast';
export * from '@hickory/websocket';
export * from '@hickory/compress';
// Named one by one: these two packages' main entries still hold their plugin authors' internals.
export {
  dispatchPlugin,
  expose,
  when,
  route,
  routeTo,
  renderingFor,
  override_template,
  wraps,
  parameterIndex,
  routeMap,
  openApiDocument,
  InvalidInput,
  DISPATCH_ERRORS,
  type ExposeOptions,
  type WrapsOptions,
  type WrapperArgs,
  type WhenOptions,
  type ArgsOf,
  type BodyOf,
  type ArgumentSchemas,
  type Rendering,
  type RoutedMethod,
  type MethodName,
  type OpenApiOptions,
  type OpenApiConfig,
  type OpenApiSecurityScheme,
  type RouteInfo,
  type DispatchErrorCode,
} from '@hickory/dispatch';
export { restPlugin, RestController, REST_ERRORS, type RestErrorCode } from '@hickory/rest';
export { ejsRenderer, type EjsRendererOptions } from '@hickory/ejs';
export { nunjucksRenderer, type NunjucksRendererOptions } from '@hickory/nunjucks';
export { handlebarsRenderer, type HandlebarsRendererOptions } from '@hickory/handlebars';
