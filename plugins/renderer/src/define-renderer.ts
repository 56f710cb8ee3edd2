import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { definePlugin, type Kernel, type Plugin, type RenderJob } from '@hickory/core';
import { isThenable, tapDirect } from '@hickory/core/kit';
import { RENDERER_CONFIG } from './config.ts';
import { rendererError, templateFailed, TemplateError } from './errors.ts';
import { mergeNamespace } from './namespace.ts';
import { resolveTemplateName, type TemplateFile } from './template-names.ts';
import { readTemplate, readTemplateNow, templateStore, templateStoreNow } from './template-store.ts';

/** Where an engine error points (see {@link RendererEngine.locate}). */
export interface EngineLocation {
  /** The template that failed, relative to `template_path`, when not the one rendered. */
  template?: string;
  line?: number;
  column?: number;
}

/**
 * What `create()` gets: the resolved settings and helpers that keep every engine inside
 * `template_path` and share one caching rule.
 */
export interface RendererContext {
  /** The kernel (ready: its configuration is resolved). */
  readonly kernel: Kernel;
  /** The engine's name. */
  readonly engine: string;
  /** The absolute template directory (`template_path`, default `<confdir>/templates`). */
  readonly root: string;
  /** Whether compiled templates are kept (`template_cache` config, or the plugin's `cache` option). */
  readonly cache: boolean;
  /** Resolves a template name inside `root` (see `resolveTemplateName`); `from` makes `./x` relative to it. */
  resolve(name: string, from?: TemplateFile): TemplateFile;
  /** Reads a template's text; a missing file throws a {@link TemplateError} naming it. */
  read(file: TemplateFile): Promise<string>;
  /**
   * {@link RendererContext.read} without waiting: for an engine rendering synchronously that meets
   * a template it has not loaded yet. It blocks the thread, so use it once per template (caching on).
   */
  readNow(file: TemplateFile): string;
  /** A loader that compiles each file once when caching is on, on every call when it is off. */
  store<T>(compile: (source: string, file: TemplateFile) => T | Promise<T>): (file: TemplateFile) => Promise<T>;
  /**
   * Like {@link RendererContext.store}, but a template already compiled is returned itself, not
   * in a promise, so that an engine can render it without waiting.
   */
  storeNow<T>(compile: (source: string, file: TemplateFile) => T | Promise<T>): (file: TemplateFile) => T | Promise<T>;
}

/** A running engine, made by {@link RendererDefinition.create} when the kernel gets ready. */
export interface RendererEngine {
  /**
   * Renders a template (already resolved inside `root`) with `data` (only data, never options).
   * Returns the text itself when it can render without waiting (a cached, synchronous template):
   * a promise costs more on the request path.
   */
  render(file: TemplateFile, data: Record<string, unknown>): string | Promise<string>;
  /** Where an error thrown by `render` points, when the engine can tell. */
  locate?(error: unknown): EngineLocation | undefined;
}

/** Options every renderer plugin accepts (`kernel.use(ejsRenderer, { cache: false })`). */
export interface RendererOptions {
  /** Overrides the `template_cache` configuration for this engine. */
  cache?: boolean;
}

/**
 * The npm package an engine runs on, when the app installs it itself (an optional peer
 * dependency, as the first-party engines are): a template of the engine whose package is missing
 * fails with a message naming the package to install.
 */
export interface EngineLibrary {
  /** The package's name (`ejs`). */
  readonly name: string;
  /**
   * Resolves it from the plugin's own module, without loading it (`() => import.meta.resolve('ejs')`):
   * throws when it is not installed.
   */
  resolve(): string;
}

/** The description of an engine, for {@link defineRenderer}. */
export interface RendererDefinition<O extends RendererOptions> {
  /** The engine's name: also the key of the `engine:` template prefix (`ejs:page.html`). */
  name: string;
  /** The package the engine needs, when the app installs it (see {@link EngineLibrary}). */
  library?: EngineLibrary;
  /** Template extensions it renders, without the dot (`['njk', 'nunjucks']`). */
  extensions: readonly string[];
  /** The plugin's name (default `<name>-renderer`). */
  pluginName?: string;
  /**
   * Starts the engine, once, during `kernel.ready()`. An engine on a large library returns
   * `lazyEngine(…)` so that the library loads at the first render, not here (options it can
   * check without the library are still checked here, so that they fail `ready()`).
   */
  create(context: RendererContext, options: O): RendererEngine | Promise<RendererEngine>;
  /**
   * The engine's own options (besides `cache`), each with a check that says what is wrong with a
   * value (`undefined`: fine). Declared, an option of another name fails `ready()` naming the
   * known ones, so a misspelt option is never silently ignored; left out, any option is passed
   * to `create()` unchecked.
   */
  options?: Readonly<Record<string, (value: unknown) => string | undefined>>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9_+-]*$/;

/**
 * Turns a template engine into a Hickory plugin: it taps the kernel's `render` hook for the
 * engine's name and each extension, resolves templates under `template_path` (never outside),
 * merges `extra_template_vars` under the namespace, caches compiled templates, and turns any
 * engine error into a {@link TemplateError} naming the template, the engine and the line.
 *
 * @example
 * ```ts
 * export const shoutRenderer = defineRenderer({
 *   name: 'shout',
 *   extensions: ['shout'],
 *   create: (ctx) => {
 *     const load = ctx.store((source) => source.toUpperCase());
 *     return { render: (file) => load(file) };
 *   },
 * });
 * createKernel({ template_path: './templates' }).use(shoutRenderer);
 * ```
 */
export function defineRenderer<O extends RendererOptions = RendererOptions>(definition: RendererDefinition<O>): Plugin<O | undefined> {
  const { name, extensions, create } = definition ?? ({} as RendererDefinition<O>);
  if (typeof name !== 'string' || !KEY.test(name)) throw rendererError('HICKORY_ERR_RENDERER_DEFINITION', `the name ${JSON.stringify(name)} must be a word such as "ejs"`);
  if (!Array.isArray(extensions) || extensions.length === 0 || !extensions.every((e) => typeof e === 'string' && KEY.test(e))) {
    throw rendererError('HICKORY_ERR_RENDERER_DEFINITION', `renderer "${name}" needs \`extensions\`, a list such as ['ejs'] (no dots)`);
  }
  if (typeof create !== 'function') throw rendererError('HICKORY_ERR_RENDERER_DEFINITION', `renderer "${name}" needs a create(context, options) function`);
  const pluginName = definition.pluginName ?? `${name}-renderer`;
  const keys = [...new Set([name, ...extensions])];

  return definePlugin<O | undefined>({
    name: pluginName,
    config: RENDERER_CONFIG,
    apply(kernel, options) {
      if (options !== undefined && (typeof options !== 'object' || options === null)) {
        throw rendererError('HICKORY_ERR_RENDERER_OPTIONS', name, 'options must be an object such as { cache: false }');
      }
      if (options?.cache !== undefined && typeof options.cache !== 'boolean') {
        throw rendererError('HICKORY_ERR_RENDERER_OPTIONS', name, '`cache` must be true or false');
      }
      if (definition.options !== undefined && options !== undefined) checkEngineOptions(name, definition.options, options);
      // What keeps a template from rendering, for routing plugins to report at ready().
      const check = (template: string) => templateProblem(kernel, name, template, definition.library);
      for (const key of keys) kernel.addTemplateCheck(key, check);
      let render: ((job: RenderJob) => string | Promise<string>) | undefined;
      kernel.hooks.ready.tapPromise(pluginName, async () => {
        const context = makeContext(kernel, name, options);
        const engine = await create(context, (options ?? {}) as O);
        render = renderWith(engine, context, kernel, definition.library);
      });
      for (const key of keys) {
        // A direct tap: the kernel calls it without a promise, so a synchronous render stays one.
        tapDirect(kernel.hooks.render.for(key), pluginName, (job) => {
          if (render === undefined) throw rendererError('HICKORY_ERR_RENDERER_NOT_READY', name, job.template);
          return render(job);
        });
      }
    },
  });
}

function checkEngineOptions(engine: string, checks: NonNullable<RendererDefinition<RendererOptions>['options']>, options: object): void {
  const known = ['cache', ...Object.keys(checks)];
  for (const [key, value] of Object.entries(options)) {
    if (key === 'cache' || value === undefined) continue;
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
    if (check === undefined) throw rendererError('HICKORY_ERR_RENDERER_OPTIONS', engine, `\`${key}\` is not one of its options (${known.join(', ')})`);
    const problem = check(value);
    if (problem !== undefined) throw rendererError('HICKORY_ERR_RENDERER_OPTIONS', engine, `\`${key}\` ${problem}`);
  }
}

function templateRoot(kernel: Kernel): string {
  const config = kernel.config;
  const templatePath = config.template_path ?? 'templates';
  return isAbsolute(templatePath) ? templatePath : resolve(config.confdir, templatePath);
}

// The engine's package is missing, the name leaves template_path, or the file is not there.
function templateProblem(kernel: Kernel, engine: string, template: string, library: EngineLibrary | undefined): string | undefined {
  if (library !== undefined) {
    try {
      library.resolve();
    } catch {
      return missingLibrary(library);
    }
  }
  const root = templateRoot(kernel);
  let file: TemplateFile;
  try {
    file = resolveTemplateName(root, template, engine);
  } catch (error) {
    return (error as Error).message;
  }
  if (isFile(file.path)) return undefined;
  return new TemplateError('HICKORY_ERR_RENDERER_TEMPLATE_MISSING', { template: file.name, engine }, [file.name, engine, root]).message;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function makeContext(kernel: Kernel, engine: string, options: RendererOptions | undefined): RendererContext {
  const config = kernel.config;
  const root = templateRoot(kernel);
  const cache = options?.cache ?? (config.template_cache as boolean | undefined) ?? true;
  const read = (file: TemplateFile) => readTemplate(file, engine, root);
  const loader =
    <T>(compile: (source: string, file: TemplateFile) => T | Promise<T>) =>
    async (file: TemplateFile): Promise<T> =>
      compile(await read(file), file);
  return Object.freeze({
    kernel,
    engine,
    root,
    cache,
    resolve: (name: string, from?: TemplateFile) => resolveTemplateName(root, name, engine, from),
    read,
    readNow: (file: TemplateFile) => readTemplateNow(file, engine, root),
    store: <T>(compile: (source: string, file: TemplateFile) => T | Promise<T>) => templateStore(cache, loader(compile)),
    storeNow: <T>(compile: (source: string, file: TemplateFile) => T | Promise<T>) => templateStoreNow(cache, loader(compile)),
  });
}

function renderWith(engine: RendererEngine, context: RendererContext, kernel: Kernel, library: EngineLibrary | undefined): (job: RenderJob) => string | Promise<string> {
  const extra = kernel.config.extra_template_vars as Record<string, unknown> | undefined;
  const resolved = new Map<string, TemplateFile>();
  return (job) => {
    let file = resolved.get(job.template);
    if (file === undefined) {
      file = context.resolve(job.template);
      // Names come from exposures, so this stays small; the bound guards against names built at run time.
      if (resolved.size < 1000) resolved.set(job.template, file);
    }
    let text: string | Promise<string>;
    try {
      text = engine.render(file, mergeNamespace(extra, job.namespace));
    } catch (error) {
      return failed(engine, context, file, error, library);
    }
    if (!isThenable(text)) return text;
    const from = file;
    return Promise.resolve(text).then(undefined, (error: unknown) => failed(engine, context, from, error, library));
  };
}

// Any engine error becomes a TemplateError naming the template, the engine and the line; an
// engine package that is not installed names the package to install.
function failed(engine: RendererEngine, context: RendererContext, file: TemplateFile, error: unknown, library: EngineLibrary | undefined): never {
  if (error instanceof TemplateError) throw error;
  if (library !== undefined && isMissingPackage(error, library.name)) throw templateFailed({ template: file.name, engine: context.engine }, error, missingLibrary(library));
  const where = safeLocate(engine, error);
  throw templateFailed({ template: where?.template ?? file.name, engine: context.engine, line: where?.line, column: where?.column }, error);
}

// What to say when an engine's package is not installed.
function missingLibrary(library: EngineLibrary): string {
  return `it needs the package "${library.name}", which is not installed: npm install ${library.name}`;
}

// Node's error for an import of a package that is not there names it in quotes.
function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(`'${name}'`);
}

function safeLocate(engine: RendererEngine, error: unknown): EngineLocation | undefined {
  try {
    return engine.locate?.(error);
  } catch {
    return undefined;
  }
}
