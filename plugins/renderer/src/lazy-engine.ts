import { loadOnce } from '@hickory/core/kit';
import type { RendererEngine } from './define-renderer.ts';

/**
 * An engine whose code loads on its first render: `load` (typically a dynamic `import()` of the
 * module that imports the template library, then its `create…Engine`) runs once, when the first
 * template is rendered, so that an application plugging the renderer in but never rendering one
 * of its templates never loads the library (and its heap does not grow for it). Until then a
 * render returns a promise (allowed by the `render` hook); afterwards each render goes straight to
 * the loaded engine. A failed load is not kept: the next render tries again (see `loadOnce`).
 *
 * @example
 * ```ts
 * export const nunjucksRenderer = defineRenderer({
 *   name: 'nunjucks',
 *   extensions: ['njk'],
 *   create: (context, options) => lazyEngine(async () => (await import('./nunjucks-engine.ts')).createNunjucksEngine(context, options)),
 * });
 * ```
 */
export function lazyEngine(load: () => Promise<RendererEngine>): RendererEngine {
  const engine = loadOnce(load);
  return {
    render: (file, data) => {
      const loaded = engine();
      return loaded instanceof Promise ? loaded.then((made) => made.render(file, data)) : loaded.render(file, data);
    },
    // Called after a failed render, so after the load began; before it ends there is nothing to place.
    locate: (error) => {
      const loaded = engine();
      return loaded instanceof Promise ? undefined : loaded.locate?.(error);
    },
  };
}
