/**
 * `@hickory/app`: the whole framework in one import. `createApp()` is a kernel with every
 * first-party plugin in use; the rest re-exports the packages' public names.
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
export * from '@hickory/dispatch';
export * from '@hickory/rest';
export * from '@hickory/multipart';
export * from '@hickory/static';
export * from '@hickory/hooks';
export * from '@hickory/ejs';
export * from '@hickory/nunjucks';
export * from '@hickory/handlebars';
