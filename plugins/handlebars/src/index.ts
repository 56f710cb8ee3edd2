/**
 * `@hickory/handlebars`: handlebars templates (`.hbs`, `.handlebars`) for Hickory.
 *
 * - Partials: every template under `<template_path>/partials/` is a partial named by its path
 *   there without the extension (`partials/nav.hbs` → `{{> nav}}`).
 * - Layouts: a layout is a partial that prints `{{> @partial-block}}`; a page wraps itself in
 *   it: `{{#> layouts/main title=title}}<h1>…</h1>{{/layouts/main}}`.
 * - Escaping is on (`{{x}}`; `{{{x}}}` is raw) and prototype properties and methods of the data
 *   stay unreachable.
 *
 * @example
 * ```ts
 * import { handlebarsRenderer } from '@hickory/handlebars';
 * createKernel({ template_path: '%(confdir)s/templates' }).use(handlebarsRenderer, { helpers: { upper } });
 * ```
 */
import { defineRenderer, lazyEngine, namedFunctions, type RendererOptions } from '@hickory/renderer';
import type { HandlebarsEngineOptions } from './handlebars-engine.ts';
import { HANDLEBARS_EXTENSIONS } from './extensions.ts';

export type { HandlebarsEngineOptions } from './handlebars-engine.ts';

/** Options of {@link handlebarsRenderer}. */
export interface HandlebarsRendererOptions extends RendererOptions, HandlebarsEngineOptions {}

/**
 * The handlebars renderer plugin: renders `.hbs` and `.handlebars` templates and `handlebars:` names.
 *
 * @example
 * ```ts
 * createKernel({ template_path: './templates' }).use(handlebarsRenderer);
 * await kernel.render('books/list.hbs', { books });
 * ```
 */
export const handlebarsRenderer = defineRenderer<HandlebarsRendererOptions>({
  name: 'handlebars',
  extensions: HANDLEBARS_EXTENSIONS,
  pluginName: '@hickory/handlebars',
  // An optional peer: the app installs it when it has templates of this kind.
  library: { name: 'handlebars', resolve: () => import.meta.resolve('handlebars') },
  // handlebars (the largest of the three libraries) loads at the first render of one of its templates.
  options: { helpers: namedFunctions },
  create: (context, options) => lazyEngine(async () => (await import('./handlebars-engine.ts')).createHandlebarsEngine(context, options)),
});
