import type { ConfigRule } from './config.ts';
import { coreError } from './errors.ts';
import { applyPlugin, checkPlugin, type PluginOf } from './plugin.ts';
import { differingOptions } from './plugin-options.ts';

// A plugin in use: its options, and the plugin that added it as a dependency (none: use()).
interface PluginInUse<K> {
  readonly plugin: PluginOf<K>;
  readonly options: unknown;
  readonly dependent: string | undefined;
}

/**
 * The plugins a kernel uses, by name: each applied once (its dependencies first), the
 * configuration keys they declare, and what their `apply` still does or failed with — every
 * failure reported by {@link PluginRegistry.applied} at `ready()`, however the app was assembled.
 *
 * @example
 * ```ts
 * const plugins = new PluginRegistry(kernel);
 * plugins.register(restPlugin, undefined); // dispatchPlugin first, as a dependency
 * await plugins.applied();                 // at ready(): rejects with the first failure
 * ```
 */
export class PluginRegistry<K> {
  /** The configuration keys the plugins declare (`plugin.config`), to resolve with the core's. */
  readonly configRules: Record<string, ConfigRule> = {};
  private readonly inUse = new Map<string, PluginInUse<K>>();
  private readonly applying: Array<Promise<unknown>> = [];

  constructor(private readonly kernel: K) {}

  /** True when a plugin of that name is in use. */
  has(name: string): boolean {
    return this.inUse.has(name);
  }

  /**
   * Applies `plugin` with `options` unless a plugin of its name is in use already (then other
   * options are a failure for `ready()`); its missing dependencies first. A dependency cycle throws.
   */
  register(plugin: PluginOf<K>, options: unknown, chain: readonly string[] = []): void {
    checkPlugin(plugin);
    if (chain.includes(plugin.name)) throw coreError('HICKORY_ERR_PLUGIN_CYCLE', [...chain, plugin.name].join(' → '));
    const inUse = this.inUse.get(plugin.name);
    if (inUse) {
      if (options !== undefined) this.checkRepeated(inUse, plugin, options);
      return;
    }
    for (const dependency of plugin.dependencies ?? []) this.register(dependency as PluginOf<K>, undefined, [...chain, plugin.name]);
    this.inUse.set(plugin.name, { plugin, options, dependent: chain.at(-1) });
    if (plugin.config) Object.assign(this.configRules, plugin.config);
    let pending: Promise<void> | undefined;
    try {
      pending = applyPlugin(plugin, this.kernel, options);
    } catch (error) {
      // Reported by ready(), as an asynchronous apply's failure is: the way an app is assembled
      // (createApp, a config file) never changes when a mistake surfaces.
      pending = Promise.reject(error as Error);
      pending.catch(() => {});
    }
    if (pending) this.applying.push(pending);
  }

  /** Settles once every `apply` has; rejects with the first failure. */
  applied(): Promise<unknown> {
    return Promise.all(this.applying);
  }

  // A plugin already applied cannot take other options: said at ready(), naming what differs.
  private checkRepeated(inUse: PluginInUse<K>, plugin: PluginOf<K>, options: unknown): void {
    const other = inUse.plugin !== plugin;
    // Another plugin object of that name is never applied: none of its options would count.
    const differing = differingOptions(other ? undefined : inUse.options, options);
    if (differing.length === 0 && !other) return;
    const how =
      other ? 'by a different plugin of the same name'
      : inUse.dependent !== undefined ? `added without options as a dependency of "${inUse.dependent}"`
      : inUse.options === undefined ? 'used earlier without options'
      : 'used earlier with other options';
    const what = differing.length === 0 ? 'its options' : differing.length === 1 ? `option ${differing[0]}` : `options ${differing.join(', ')}`;
    const failed = Promise.reject(coreError('HICKORY_ERR_PLUGIN_OPTIONS_AGAIN', plugin.name, how, what));
    failed.catch(() => {});
    this.applying.push(failed);
  }
}
