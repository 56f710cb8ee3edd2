import { coreError } from './errors.ts';
import type { ConfigRule } from './config.ts';

/**
 * A Hickory plugin for a kernel of type `K`: a name, the plugins it needs, the configuration keys
 * it reads, and an `apply(kernel, options)` that taps the kernel's hooks (under the plugin's own
 * name). Plugins use `Plugin` (`PluginOf<Kernel>`, from the kernel's module): the kernel type is a
 * parameter here so that this file never imports the kernel.
 *
 * @example
 * ```ts
 * const hello: PluginOf<Kernel> = { name: 'hello', apply(kernel) {} };
 * ```
 */
export interface PluginOf<K, Options = any> {
  /**
   * Unique name; `use()` of a plugin whose name is in use does not apply it again (other options
   * given to it fail `ready()`).
   */
  readonly name: string;
  /** Plugins that must be in use first; `use()` adds the missing ones itself. */
  readonly dependencies?: readonly PluginOf<K>[];
  /** Configuration keys this plugin adds to the kernel's table, each with its check. */
  readonly config?: Readonly<Record<string, ConfigRule>>;
  /** Taps hooks and registers services; a returned promise is awaited by `ready()`. */
  apply(kernel: K, options: Options): void | Promise<void>;
}

/**
 * Throws the coded error for a value that is not a usable plugin.
 *
 * @example
 * ```ts
 * checkPlugin({ name: 'x', apply() {} }); // ok
 * ```
 */
export function checkPlugin(plugin: unknown): asserts plugin is PluginOf<unknown> {
  const candidate = plugin as Partial<PluginOf<unknown>> | null | undefined;
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

/**
 * Calls a plugin's `apply`, turning what it throws into `HICKORY_ERR_PLUGIN_FAILED` (naming the
 * plugin; a coded Hickory error passes as it is). An asynchronous `apply` gives a promise that
 * rejects the same way, for `ready()` to report.
 *
 * @example
 * ```ts
 * const pending = applyPlugin(plugin, kernel, options);
 * if (pending) applying.push(pending);
 * ```
 */
export function applyPlugin<K>(plugin: PluginOf<K>, kernel: K, options: unknown): Promise<void> | undefined {
  const failed = (error: unknown): never => {
    // A code that is no string (HTTPError.code is its status) is not one of ours.
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && code.startsWith('HICKORY_ERR_')) throw error;
    throw coreError('HICKORY_ERR_PLUGIN_FAILED', plugin.name, (error as Error | undefined)?.message ?? error, error);
  };
  let pending: void | Promise<void>;
  try {
    pending = plugin.apply(kernel, options);
  } catch (error) {
    return failed(error);
  }
  if (!pending || typeof (pending as Promise<void>).then !== 'function') return undefined;
  const settled = Promise.resolve(pending).catch(failed);
  settled.catch(() => {}); // reported by ready()
  return settled;
}
