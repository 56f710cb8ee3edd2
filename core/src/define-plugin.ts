import type { Plugin } from './kernel.ts';
import { checkPlugin } from './plugin.ts';

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
