import { definePlugin, tapDirect } from '@hickory/core';
import { checkControllerTree } from './check.ts';
import { warnDeadEndChildren } from './dead-end-children.ts';
import { routeDirect, type DispatchSettings } from './dispatch.ts';
import { trailSwitchOf } from './walk-trail.ts';

/**
 * Object dispatch for Hickory: at `ready()` it checks the controller tree of `root` (errors name
 * the cause and the fix; outside production, warnings name fields that put objects with nothing
 * routable in the URL space); per request it walks the tree (`route` hook), maps arguments, calls the
 * method and renders the result. Reads `force_canonical` and `guess_content_type_from_ext`.
 *
 * @example
 * ```ts
 * const app = createKernel({ root: new RootController() }).use(dispatchPlugin);
 * await app.ready();
 * ```
 */
export const dispatchPlugin = definePlugin({
  name: 'dispatch',
  apply(kernel) {
    let root: object | undefined;
    const trail = trailSwitchOf(kernel);
    let settings: DispatchSettings = { forceCanonical: true, guessFromExtension: true, trail };
    kernel.hooks.ready.tap('dispatch', () => {
      root = checkControllerTree(kernel);
      // For developers, as checkControllerTree's alias warning: not for production logs.
      if (process.env['NODE_ENV'] !== 'production') warnDeadEndChildren(kernel, root);
      settings = {
        forceCanonical: kernel.config.force_canonical !== false,
        guessFromExtension: kernel.config.guess_content_type_from_ext !== false,
        trail,
      };
    });
    tapDirect(kernel.hooks.route, 'dispatch', (request) => routeDirect(kernel, root!, settings, request));
  },
});
