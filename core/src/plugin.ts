import { coreError } from './errors.ts';
import type { ConfigRule } from './config.ts';
import type { Kernel } from './kernel.ts';

/**
 * A Hickory plugin: a name, the plugins it needs, the configuration keys it reads, and an
 * `apply(kernel, options)` that taps the kernel's hooks (under the plugin's own name).
 */
export interface Plugin<Options = any> {
  /** Unique name; `use()` of a second plugin with the same name is a no-op. */
  readonly name: string;
  /** Plugins that must be in use first; `use()` adds the missing ones itself. */
  readonly dependencies?: readonly Plugin[];
  /** Configuration keys this plugin adds to the kernel's table, each with its check. */
  readonly config?: Readonly<Record<string, ConfigRule>>;
  /** Taps hooks and registers services; a returned promise is awaited by `ready()`. */
  apply(kernel: Kernel, options: Options): void | Promise<void>;
}

/**
 * Declares a plugin, checking its shape at once (a coded error names what is wrong).
 *
 * @example
 * ```ts
 * export const poweredBy = definePlugin({
 *   name: 'powered-by',
 *   apply(kernel) {
 *     kernel.hooks.beforeRoute.tap('powered-by', (_req, res) => { res.headers['X-Powered-By'] = 'hickory'; });
 *   },
 * });
 * ```
 */
export function definePlugin<Options = void>(plugin: Plugin<Options>): Plugin<Options> {
  checkPlugin(plugin);
  return Object.freeze({ ...plugin });
}

/**
 * Throws the coded error for a value that is not a usable plugin.
 *
 * @example
 * ```ts
 * checkPlugin({ name: 'x', apply() {} }); // ok
 * ```
 */
export function checkPlugin(plugin: unknown): asserts plugin is Plugin {
  const candidate = plugin as Partial<Plugin> | null | undefined;
  if (!candidate || typeof candidate !== 'object' || typeof candidate.name !== 'string' || candidate.name.length === 0) {
    throw coreError('HICKORY_ERR_PLUGIN_NAME');
  }
  if (typeof candidate.apply !== 'function') throw coreError('HICKORY_ERR_PLUGIN_APPLY', candidate.name);
  const deps = candidate.dependencies;
  if (deps !== undefined) {
    if (!Array.isArray(deps)) throw coreError('HICKORY_ERR_PLUGIN_DEPENDENCY', candidate.name, typeof deps);
    for (const dep of deps) {
      const ok = dep && typeof dep === 'object' && typeof dep.name === 'string' && dep.name && typeof dep.apply === 'function';
      if (!ok) throw coreError('HICKORY_ERR_PLUGIN_DEPENDENCY', candidate.name, describeValue(dep));
    }
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string "${value}"`;
  if (typeof value === 'object') return `an object without name/apply`;
  return typeof value;
}
