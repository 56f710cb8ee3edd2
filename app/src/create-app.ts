import type { KernelConfig, Plugin } from '@hickory/core';
import { coreError } from '@hickory/core/kit';
import { dispatchPlugin, type OpenApiConfig } from '@hickory/dispatch';
import { restPlugin } from '@hickory/rest';
import { multipartPlugin } from '@hickory/multipart';
import { staticPlugin } from '@hickory/static';
import { hooksPlugin } from '@hickory/hooks';
import { ejsRenderer } from '@hickory/ejs';
import { nunjucksRenderer } from '@hickory/nunjucks';
import { handlebarsRenderer } from '@hickory/handlebars';
import { App } from './app.ts';

/** A plugin for {@link createApp}'s `plugins` list: the plugin, or the plugin and its options. */
export type PluginEntry = Plugin<never> | readonly [plugin: Plugin<never>, options: unknown];

/** {@link createApp}'s configuration: the kernel's, plus `plugins`. */
export interface AppConfig extends KernelConfig {
  /**
   * Plugins to use after the first-party ones, in order (third-party plugins from npm, your own):
   * also the way to add them to an app that `hickory serve` builds from a config file.
   */
  plugins?: readonly PluginEntry[];
  /**
   * What the OpenAPI document (`hickory routes --openapi`, `app.openapi()`) says secured routes
   * require: `{ securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } }`
   * (declared by `dispatchPlugin`; checked at `ready()`).
   */
  openapi?: OpenApiConfig;
}

/**
 * A kernel with every first-party plugin in use: object dispatch, REST, multipart uploads,
 * static files, hooks (after static files: those are answered before `on_route`) and the ejs, nunjucks and handlebars renderers; then the `plugins` of the
 * configuration, in order. A `plugins` entry that is not a plugin fails at once, naming it.
 *
 * @example
 * ```ts
 * const app = createApp({ root: new RootController(), template_path: './templates', plugins: [requestId, [cors, { origin: '*' }]] });
 * await app.listen({ port: 8080 });
 * ```
 */
export function createApp(config: AppConfig = {}): App {
  const { plugins = [], ...kernelConfig } = config;
  if (!Array.isArray(plugins)) throw coreError('HICKORY_ERR_CONFIG_VALUE', 'plugins', 'must be a list of plugins or [plugin, options] pairs');
  const app = new App(kernelConfig)
    .use(dispatchPlugin)
    .use(restPlugin)
    .use(multipartPlugin)
    .use(staticPlugin)
    .use(hooksPlugin)
    .use(ejsRenderer)
    .use(nunjucksRenderer)
    .use(handlebarsRenderer);
  for (const entry of plugins as readonly PluginEntry[]) {
    if (Array.isArray(entry)) app.use(entry[0] as Plugin<unknown>, entry[1]);
    else app.use(entry as Plugin<unknown>);
  }
  return app;
}
