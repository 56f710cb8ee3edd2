import nunjucks from 'nunjucks';
import type { RendererContext, RendererEngine } from '@hickory/renderer';
import { toTemplateError } from './nunjucks-errors.ts';
import { TemplateLoader } from './template-loader.ts';

/** Options of the nunjucks renderer, besides `cache`. */
export interface NunjucksEngineOptions {
  /** Filters added to the environment (`{ shout: (s) => s.toUpperCase() }`). */
  filters?: Record<string, (...args: any[]) => unknown>;
  /** Globals added to the environment (constants and functions every template sees). */
  globals?: Record<string, unknown>;
}

/**
 * Starts the nunjucks engine: an Environment on a loader rooted at `template_path`, with
 * `autoescape: true` and every option explicit; the callback API is wrapped in a promise, so
 * asynchronous loading and async filters work.
 *
 * @example
 * ```ts
 * const engine = createNunjucksEngine(context, { filters: { shout: (s: string) => s.toUpperCase() } });
 * ```
 */
export function createNunjucksEngine(context: RendererContext, options: NunjucksEngineOptions = {}): RendererEngine {
  const env = new nunjucks.Environment(new TemplateLoader(context), {
    autoescape: true,
    throwOnUndefined: false,
    trimBlocks: false,
    lstripBlocks: false,
    // Keeps nunjucks' own error objects (positions and causes) instead of message-only copies.
    dev: true,
  });
  for (const [name, filter] of Object.entries(options.filters ?? {})) env.addFilter(name, filter);
  for (const [name, value] of Object.entries(options.globals ?? {})) env.addGlobal(name, value);

  return {
    render: (file, data) =>
      new Promise<string>((resolve, reject) => {
        env.render(file.name, data, (error, text) => (error ? reject(toTemplateError(error, file.name, context.engine)) : resolve(text ?? '')));
      }),
  };
}
