import { posix, join } from 'node:path';
import { TemplateError } from './errors.ts';

/** A template found under `template_path`. */
export interface TemplateFile {
  /** Its name relative to `template_path`, with `/` separators (`books/list.ejs`). */
  readonly name: string;
  /** Its absolute path on disk. */
  readonly path: string;
}

/**
 * Resolves a template name inside `root`. A name is relative to `root` (a leading `/` too);
 * with `from`, a name starting with `./` or `../` is relative to that template's folder.
 * A name that would leave `root`, or holds `\` or NUL, is a {@link TemplateError}.
 *
 * @example
 * ```ts
 * resolveTemplateName('/srv/tpl', 'books/list.ejs', 'ejs').path; // '/srv/tpl/books/list.ejs'
 * resolveTemplateName('/srv/tpl', '../etc/passwd', 'ejs');        // throws
 * ```
 */
export function resolveTemplateName(root: string, name: string, engine: string, from?: TemplateFile): TemplateFile {
  const bad = () =>
    new TemplateError('HICKORY_ERR_RENDERER_TEMPLATE_NAME', { template: String(name), engine }, [JSON.stringify(String(name)), engine, root]);
  if (typeof name !== 'string' || name.length === 0 || name.includes('\0') || name.includes('\\')) throw bad();
  const relative = from !== undefined && (name.startsWith('./') || name.startsWith('../'));
  const joined = relative ? posix.join(posix.dirname(from.name), name) : name.replace(/^\/+/, '');
  const normal = posix.normalize(joined);
  if (normal === '.' || normal === '..' || normal.startsWith('../') || normal.endsWith('/') || posix.isAbsolute(normal)) throw bad();
  return { name: normal, path: join(root, normal) };
}
