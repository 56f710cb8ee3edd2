import { definePlugin, type Plugin } from '@hickory/core';
import { requireAdminPassword } from './admin-session.ts';
import type { Library } from './store/library.ts';

/**
 * What the showcase needs around its app: at `ready()`, a refusal to start in production with the
 * demo admin password, then its database opened and migrated (so a wrong `DATABASE_URL` stops the
 * start, naming it); at `close()`, the database closed.
 *
 * @example
 * ```ts
 * createApp({ root: new RootController(library), hooks: [library.hook], plugins: [showcasePlugin(library)] });
 * ```
 */
export function showcasePlugin(library: Library): Plugin {
  return definePlugin({
    name: 'hickory-showcase',
    apply(kernel) {
      kernel.hooks.ready.tapPromise('hickory-showcase', async () => {
        requireAdminPassword();
        await library.open();
      });
      kernel.hooks.close.tapPromise('hickory-showcase', () => library.close());
    },
  });
}
