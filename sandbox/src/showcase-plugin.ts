import { definePlugin, type Plugin } from '@hickory/core';
import { requireAdminPassword } from './admin-password.ts';
import { requireSessionSecret } from './admin-session.ts';
import type { Library } from './store/library.ts';
import type { UploadShelf } from './upload-shelf.ts';

/**
 * What the showcase needs around its app: at `ready()`, a refusal to start in production with the
 * demo admin password or session secret, then its database opened and migrated (so a wrong `DATABASE_URL` stops the
 * start, naming it); at `close()` (SIGTERM under `hickory serve` too), the database closed and the
 * uploads' folder removed.
 *
 * @example
 * ```ts
 * createApp({ root: new RootController(library, uploads), hooks: [library.hook], plugins: [showcasePlugin(library, uploads)] });
 * ```
 */
export function showcasePlugin(library: Library, uploads?: UploadShelf): Plugin {
  return definePlugin({
    name: 'hickory-showcase',
    apply(kernel) {
      kernel.hooks.ready.tapPromise('hickory-showcase', async () => {
        requireAdminPassword();
        requireSessionSecret();
        await library.open();
      });
      kernel.hooks.close.tapPromise('hickory-showcase', async () => {
        await Promise.all([library.close(), uploads?.clear()]);
      });
    },
  });
}
