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
 * `autoescape: true` and every option explicit.
 *
 * The first render of a page goes through nunjucks' callback API (wrapped in a promise), so its
 * templates load without blocking. Once a page has rendered and caching is on, its templates are
 * compiled and kept, and later renders use nunjucks' synchronous API: the text comes back without
 * a promise or a deferred callback, which is what the request path pays for most.
 *
 * @example
 * ```ts
 * const engine = createNunjucksEngine(context, { filters: { shout: (s: string) => s.toUpperCase() } });
 * ```
 */
export function createNunjucksEngine(context: RendererContext, options: NunjucksEngineOptions = {}): RendererEngine {
  const loader = new TemplateLoader(context);
  const linesOf = (name: string) => loader.lineCount(name);
  const env = new nunjucks.Environment(loader, {
    autoescape: true,
    throwOnUndefined: false,
    trimBlocks: false,
    lstripBlocks: false,
    // Keeps nunjucks' own error objects (positions and causes) instead of message-only copies.
    dev: true,
  });
  for (const [name, filter] of Object.entries(options.filters ?? {})) env.addFilter(name, filter);
  for (const [name, value] of Object.entries(options.globals ?? {})) env.addGlobal(name, value);
  // Pages that rendered once through the callback API; only kept while caching is on.
  const warm = new Set<string>();

  const renderNow = (name: string, data: Record<string, unknown>): string => {
    loader.async = false;
    try {
      return env.render(name, data);
    } catch (error) {
      throw toTemplateError(error, name, context.engine, linesOf);
    } finally {
      loader.async = true;
    }
  };

  const renderLater = (name: string, data: Record<string, unknown>): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      env.render(name, data, (error, text) => {
        if (error) return reject(toTemplateError(error, name, context.engine, linesOf));
        if (context.cache && warm.size < MAX_WARM) warm.add(name);
        resolve(text ?? '');
      });
    });

  return {
    render: (file, data) => (warm.has(file.name) ? renderNow(file.name, data) : renderLater(file.name, data)),
  };
}

// Page names come from exposures, so the set stays small; the bound guards against names built at run time.
const MAX_WARM = 1000;
