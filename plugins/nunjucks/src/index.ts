/**
 * `@hickory/nunjucks`: nunjucks templates (`.njk`, `.nunjucks`) for Hickory.
 *
 * Autoescape is on; `{% extends %}`, `{% include %}`, `{% import %}` names are relative to
 * `template_path` (or to the current template with `./` and `../`) and never leave it.
 *
 * @example
 * ```ts
 * import { nunjucksRenderer } from '@hickory/nunjucks';
 * createKernel({ template_path: '%(confdir)s/templates' }).use(nunjucksRenderer, { filters: { shout } });
 * ```
 */
import { defineRenderer, lazyEngine, namedFunctions, namedValues, type RendererOptions } from '@hickory/renderer';
import type { NunjucksEngineOptions } from './nunjucks-engine.ts';

export type { NunjucksEngineOptions } from './nunjucks-engine.ts';

/** Options of {@link nunjucksRenderer}. */
export interface NunjucksRendererOptions extends RendererOptions, NunjucksEngineOptions {}

/**
 * The nunjucks renderer plugin: renders `.njk` and `.nunjucks` templates and `nunjucks:` names.
 *
 * @example
 * ```ts
 * createKernel({ template_path: './templates' }).use(nunjucksRenderer);
 * await kernel.render('books/list.njk', { books });
 * ```
 */
export const nunjucksRenderer = defineRenderer<NunjucksRendererOptions>({
  name: 'nunjucks',
  extensions: ['njk', 'nunjucks'],
  pluginName: '@hickory/nunjucks',
  // An optional peer: the app installs it when it has templates of this kind.
  library: { name: 'nunjucks', resolve: () => import.meta.resolve('nunjucks') },
  // nunjucks loads at the first render of one of its templates: an app that never renders one never loads it.
  options: { filters: namedFunctions, globals: namedValues },
  create: (context, options) => lazyEngine(async () => (await import('./nunjucks-engine.ts')).createNunjucksEngine(context, options)),
});
