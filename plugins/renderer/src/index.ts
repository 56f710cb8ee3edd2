/**
 * `@hickory/renderer`: {@link defineRenderer} turns a template engine into a Hickory plugin.
 * The first-party engines (`@hickory/ejs`, `@hickory/nunjucks`, `@hickory/handlebars`) are
 * built with it, and so can any third-party engine; `@hickory/renderer/conformance` holds the
 * test suite every renderer runs.
 *
 * @example
 * ```ts
 * import { defineRenderer } from '@hickory/renderer';
 * export const upperRenderer = defineRenderer({
 *   name: 'upper',
 *   extensions: ['upper'],
 *   create: (ctx) => ({ render: async (file) => (await ctx.read(file)).toUpperCase() }),
 * });
 * ```
 */
export {
  defineRenderer,
  type EngineLibrary,
  type EngineLocation,
  type RendererContext,
  type RendererDefinition,
  type RendererEngine,
  type RendererOptions,
} from './define-renderer.ts';
export { lazyEngine } from './lazy-engine.ts';
export { namedFunctions, namedValues } from './option-checks.ts';
export { RENDERER_ERRORS, TemplateError, templateFailed, type RendererErrorCode, type TemplateLocation } from './errors.ts';
export type { TemplateFile } from './template-names.ts';
