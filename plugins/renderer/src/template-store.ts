import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { TemplateError } from './errors.ts';
import type { TemplateFile } from './template-names.ts';

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * Reads a template's text (without a byte-order mark); a missing file is a {@link TemplateError}
 * (`HICKORY_ERR_RENDERER_TEMPLATE_MISSING`) naming the template, the engine and `root`.
 *
 * @example
 * ```ts
 * const text = await readTemplate(resolveTemplateName(root, 'page.ejs', 'ejs'), 'ejs', root);
 * ```
 */
export async function readTemplate(file: TemplateFile, engine: string, root: string): Promise<string> {
  try {
    return withoutBom(await readFile(file.path, 'utf8'));
  } catch (error) {
    throw missingOr(error, file, engine, root);
  }
}

/**
 * {@link readTemplate} without waiting, for an engine that renders synchronously and meets a
 * template it has not loaded yet (once per template while caching is on: it blocks the thread).
 *
 * @example
 * ```ts
 * const text = readTemplateNow(resolveTemplateName(root, 'nav.njk', 'nunjucks'), 'nunjucks', root);
 * ```
 */
export function readTemplateNow(file: TemplateFile, engine: string, root: string): string {
  try {
    return withoutBom(readFileSync(file.path, 'utf8'));
  } catch (error) {
    throw missingOr(error, file, engine, root);
  }
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function missingOr(error: unknown, file: TemplateFile, engine: string, root: string): unknown {
  if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) {
    return new TemplateError('HICKORY_ERR_RENDERER_TEMPLATE_MISSING', { template: file.name, engine }, [file.name, engine, root], error);
  }
  return error;
}

/**
 * Loads templates through `compile`, once per file when `cache` is on (concurrent first
 * renders share one compilation; a failure is not remembered), or on every call when it is off.
 *
 * @example
 * ```ts
 * const load = templateStore(true, (file) => readTemplate(file, 'x', root).then(compile));
 * const fn = await load(file);
 * ```
 */
export function templateStore<T>(cache: boolean, compile: (file: TemplateFile) => Promise<T>): (file: TemplateFile) => Promise<T> {
  if (!cache) return compile;
  const load = templateStoreNow(cache, compile);
  return (file) => Promise.resolve(load(file));
}

/**
 * {@link templateStore} without a promise once a template is compiled: a cached template is
 * returned itself, so an engine that renders synchronously can answer without waiting (the
 * request context makes every promise cost more). Otherwise (first use, or `cache` off) a promise.
 *
 * @example
 * ```ts
 * const load = templateStoreNow(true, (file) => readTemplate(file, 'x', root).then(compile));
 * const found = load(file);
 * const fn = found instanceof Promise ? await found : found;
 * ```
 */
export function templateStoreNow<T>(cache: boolean, compile: (file: TemplateFile) => Promise<T>): (file: TemplateFile) => T | Promise<T> {
  if (!cache) return compile;
  const compiled = new Map<string, T>();
  const pending = new Map<string, Promise<T>>();
  return (file) => {
    const hit = compiled.get(file.path);
    if (hit !== undefined) return hit;
    let entry = pending.get(file.path);
    if (entry === undefined) {
      entry = compile(file).then(
        (value) => {
          // An `undefined` result stays remembered as its promise.
          if (value !== undefined) {
            compiled.set(file.path, value);
            pending.delete(file.path);
          }
          return value;
        },
        (error: unknown) => {
          if (pending.get(file.path) === entry) pending.delete(file.path);
          throw error;
        },
      );
      pending.set(file.path, entry);
    }
    return entry;
  };
}
