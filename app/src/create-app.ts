import type { KernelConfig, Plugin } from '@hickory/core';
import { checkPlugin, coreError } from '@hickory/core/kit';
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
 * Options given in `plugins` take effect wherever the plugin is used: a first-party plugin
 * (`[multipartPlugin, { limits }]`) keeps its place above and gets them, and so does a plugin that
 * another one of the list depends on. One plugin given two different sets of options, or an
 * option a plugin does not know, fails `ready()` naming the plugin and the option.
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
  const entries = (plugins as readonly PluginEntry[]).map(entryOf);
  // The kernel applies a plugin once, at its first use(): the options the list gives are passed
  // to that first use, wherever it happens (below, or as a dependency of a later entry).
  const given = new Map<string, unknown>();
  for (const { plugin, options } of entries) if (options !== undefined && !given.has(plugin.name)) given.set(plugin.name, options);
  const app = new App(kernelConfig);
  for (const plugin of FIRST_PARTY) useWithGivenOptions(app, plugin, given);
  for (const { plugin, options } of entries) {
    useWithGivenOptions(app, plugin, given);
    // A second, different set of options for the same plugin: the kernel makes ready() fail.
    app.use(plugin, options);
  }
  return app;
}

// In this order: hooks after static files, which are answered before `on_route`.
const FIRST_PARTY: readonly Plugin[] = [dispatchPlugin, restPlugin, multipartPlugin, staticPlugin, hooksPlugin, ejsRenderer, nunjucksRenderer, handlebarsRenderer];

function entryOf(entry: PluginEntry): { plugin: Plugin; options: unknown } {
  const [plugin, options] = Array.isArray(entry) ? (entry as readonly [Plugin, unknown]) : [entry as Plugin, undefined];
  checkPlugin(plugin);
  return { plugin, options };
}

// Uses the plugin's missing dependencies, then the plugin, each with the options the list gives it.
function useWithGivenOptions(app: App, plugin: Plugin, given: ReadonlyMap<string, unknown>, visiting = new Set<string>()): void {
  if (app.hasPlugin(plugin.name) || visiting.has(plugin.name)) return; // a cycle: the kernel names it at use()
  visiting.add(plugin.name);
  for (const dependency of plugin.dependencies ?? []) useWithGivenOptions(app, dependency, given, visiting);
  app.use(plugin, given.get(plugin.name));
}
