import Handlebars from 'handlebars';
import { templateFailed, TemplateError, type RendererContext, type RendererEngine, type TemplateFile } from '@hickory/renderer';
import { HANDLEBARS_EXTENSIONS } from './extensions.ts';
import { findPartials } from './partials.ts';

type Compiled = Handlebars.TemplateDelegate;
// Written out rather than `Handlebars.HelperDelegate`, so that the published types do not need
// the handlebars package, an optional peer that an app without .hbs templates does not install.
type Helper = (...args: any[]) => unknown;

/** Options of the handlebars renderer, besides `cache`. */
export interface HandlebarsEngineOptions {
  /** Helpers every template can call (`{ upper: (s) => s.toUpperCase() }`). */
  helpers?: Record<string, Helper>;
}

// Every compile and runtime option is explicit, so nothing comes from data; prototype
// properties and methods stay out of reach (the handlebars default, restated on purpose).
const COMPILE_OPTIONS: CompileOptions = Object.freeze({
  noEscape: false,
  strict: false,
  assumeObjects: false,
  preventIndent: false,
  knownHelpersOnly: false,
  data: true,
  compat: false,
  ignoreStandalone: false,
  explicitPartialContext: false,
});

type CompileOptions = Parameters<typeof Handlebars.compile>[1];

const RUNTIME_OPTIONS: Handlebars.RuntimeOptions = Object.freeze({
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
});

/**
 * Starts the handlebars engine on its own handlebars environment. Templates and partials are
 * compiled once and kept (unless caching is off). Partials are the templates under
 * `partials/`. Layouts are partial blocks: a page wraps its content in
 * `{{#> layouts/main title="Books"}}…{{/layouts/main}}` and the layout
 * (`partials/layouts/main.hbs`) prints it with `{{> @partial-block}}`; inline partials
 * (`{{#*inline "head"}}…{{/inline}}`) fill named slots.
 *
 * @example
 * ```ts
 * const engine = createHandlebarsEngine(context, { helpers: { upper: (s: string) => s.toUpperCase() } });
 * ```
 */
export function createHandlebarsEngine(context: RendererContext, options: HandlebarsEngineOptions = {}): RendererEngine {
  const hbs = Handlebars.create();
  // Registered once on this kernel's own environment: passing them per render makes handlebars
  // copy every helper on every call.
  for (const [name, helper] of Object.entries(options.helpers ?? {})) hbs.registerHelper(name, helper as Handlebars.HelperDelegate);
  const compile = (source: string, file: TemplateFile): Compiled => {
    try {
      // Parsing first makes syntax errors surface here, with their line, not at first use.
      return hbs.compile(hbs.parse(source), COMPILE_OPTIONS);
    } catch (error) {
      // Told once, by the message: the parser's own error and stack add nothing to it.
      throw templateFailed({ template: file.name, engine: context.engine, line: lastLineAtMost(lineOf(error), source) }, undefined, describeParseError(error));
    }
  };
  const load = context.storeNow(compile);
  const loadPartials = storeOnce(context.cache, async () => {
    const files = [...(await findPartials(context, HANDLEBARS_EXTENSIONS))];
    const sources = await Promise.all(files.map(([, file]) => context.read(file)));
    return lazyPartials(files.map(([name, file], i) => [name, file, sources[i]!] as const), compile);
  });

  const run = (template: Compiled, partials: Record<string, Compiled>, file: TemplateFile, data: Record<string, unknown>): string => {
    // Rendering is synchronous, so the environment's partial table can be swapped per render
    // without a race. Given as the environment's own table, handlebars never copies it, so a
    // partial is compiled only when a template uses it.
    (hbs as { partials: Record<string, Compiled> }).partials = partials;
    try {
      return template(data, RUNTIME_OPTIONS);
    } catch (error) {
      if (error instanceof TemplateError) throw error;
      throw templateFailed({ template: file.name, engine: context.engine, line: lineOf(error) }, error);
    }
  };

  return {
    // Once the template and the partials are compiled, the text itself: no promise per render.
    render(file, data) {
      const template = load(file);
      const partials = loadPartials();
      if (template instanceof Promise || partials instanceof Promise) {
        return Promise.all([template, partials]).then(([t, p]) => run(t, p, file, data));
      }
      return run(template, partials, file, data);
    },
  };
}

// A partial table whose entries compile on first use (a broken partial fails only the pages
// that use it, naming itself).
function lazyPartials(
  entries: ReadonlyArray<readonly [string, TemplateFile, string]>,
  compile: (source: string, file: TemplateFile) => Compiled,
): Record<string, Compiled> {
  const table: Record<string, Compiled> = Object.create(null);
  for (const [name, file, source] of entries) {
    // Once compiled, the getter gives way to a plain value: a getter call on every lookup costs.
    Object.defineProperty(table, name, {
      enumerable: true,
      configurable: true,
      get: () => {
        const compiled = compile(source, file);
        Object.defineProperty(table, name, { value: compiled, enumerable: true, writable: false, configurable: false });
        return compiled;
      },
    });
  }
  return table;
}

// Past the last line, handlebars counts the empty one after the final newline: that is the last line.
function lastLineAtMost(line: number | undefined, source: string): number | undefined {
  if (line === undefined) return undefined;
  const lines = source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
  return Math.min(line, Math.max(lines, 1));
}

function describeParseError(error: unknown): string {
  return error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
}

function lineOf(error: unknown): number | undefined {
  const line = (error as { lineNumber?: unknown })?.lineNumber;
  if (typeof line === 'number') return line;
  const match = /Parse error on line (\d+)/.exec((error as Error)?.message ?? '');
  return match ? Number(match[1]) : undefined;
}

// The value itself once made (a promise until then), or made on every call when caching is off.
function storeOnce<T>(cache: boolean, make: () => Promise<T>): () => T | Promise<T> {
  if (!cache) return make;
  let made: { value: T } | undefined;
  let kept: Promise<T> | undefined;
  return () => {
    if (made !== undefined) return made.value;
    if (kept === undefined) {
      const pending = make().then(
        (value) => {
          made = { value };
          return value;
        },
        (error: unknown) => {
          if (kept === pending) kept = undefined;
          throw error;
        },
      );
      kept = pending;
    }
    return kept;
  };
}
