/**
 * `@hickory/ejs`: ejs templates (`.ejs`) for Hickory.
 *
 * Templates compile with `async: true`, so an include is awaited:
 * `<%- await include('partials/nav.ejs') %>`; a promise in the namespace can be awaited too.
 * Output with `<%= %>` is escaped. Layouts are includes: a page includes
 * `layout/header.ejs` and `layout/footer.ejs`, or passes its parts to a layout include
 * (`<%- await include('/layout.ejs', { body }) %>`). Options never come from the namespace.
 *
 * @example
 * ```ts
 * import { ejsRenderer } from '@hickory/ejs';
 * const app = createKernel({ template_path: '%(confdir)s/templates' }).use(dispatchPlugin).use(ejsRenderer);
 * ```
 */
import { defineRenderer, lazyEngine, type RendererOptions } from '@hickory/renderer';

/** Options of {@link ejsRenderer} (`kernel.use(ejsRenderer, { cache: false })`). */
export type EjsRendererOptions = RendererOptions;

/**
 * The ejs renderer plugin: renders `.ejs` templates and `ejs:` prefixed names.
 *
 * @example
 * ```ts
 * createKernel({ template_path: './templates' }).use(ejsRenderer);
 * await kernel.render('books/list.ejs', { books });
 * ```
 */
export const ejsRenderer = defineRenderer<EjsRendererOptions>({
  name: 'ejs',
  extensions: ['ejs'],
  pluginName: '@hickory/ejs',
  // An optional peer: the app installs it when it has templates of this kind.
  library: { name: 'ejs', resolve: () => import.meta.resolve('ejs') },
  // ejs loads at the first render of an .ejs template.
  // Only `cache`: any other option fails ready().
  options: {},
  create: (context) => lazyEngine(async () => (await import('./ejs-engine.ts')).createEjsEngine(context)),
});
