import { definePlugin } from '@hickory/core';
import { checkOptionNames } from '@hickory/core/kit';
import { dispatchPlugin } from '@hickory/dispatch';
import { checkRestControllers } from './check.ts';

/**
 * REST for Hickory: `RestController` routes through object dispatch's `_route`, so this plugin
 * only brings dispatch along (its declared dependency) and checks every `RestController` of the
 * tree at `ready()` (custom actions that name no exposed method, or invalid verbs, fail there).
 *
 * @example
 * ```ts
 * const app = createKernel({ root: new RootController() }).use(restPlugin); // dispatch comes too
 * await app.ready();
 * ```
 */
export const restPlugin = definePlugin({
  name: 'rest',
  dependencies: [dispatchPlugin],
  apply(kernel, options) {
    // It has no options: any given would be ignored, so they fail ready() instead.
    checkOptionNames('rest', options, []);
    kernel.hooks.ready.tap('rest', (k) => checkRestControllers(k));
  },
});
