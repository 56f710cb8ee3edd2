import { readFile } from 'node:fs/promises';
import { TemplateError } from './errors.ts';
import type { TemplateFile } from './template-names.ts';

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * Reads a template's text (UTF-8, without a byte-order mark); a missing file is a
 * {@link TemplateError} naming the template.
 *
 * @example
 * ```ts
 * const text = await readTemplate(file, 'ejs', root);
 * ```
 */
export async function readTemplate(file: TemplateFile, engine: string, root: string): Promise<string> {
  try {
    const text = await readFile(file.path, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (error) {
    if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) {
      throw new TemplateError('HICKORY_ERR_RENDERER_TEMPLATE_MISSING', { template: file.name, engine }, [file.name, engine, root], error);
    }
    throw error;
  }
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
  const compiled = new Map<string, Promise<T>>();
  return (file) => {
    let entry = compiled.get(file.path);
    if (entry === undefined) {
      entry = compile(file);
      compiled.set(file.path, entry);
      entry.catch(() => compiled.delete(file.path));
    }
    return entry;
  };
}
