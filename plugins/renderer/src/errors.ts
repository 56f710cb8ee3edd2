import { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `@hickory/renderer`: every error a renderer raises has a stable code here.
 *
 * @example
 * ```ts
 * RENDERER_ERRORS.HICKORY_ERR_RENDERER_TEMPLATE_MISSING; // the message template
 * ```
 */
export const RENDERER_ERRORS = Object.freeze({
  HICKORY_ERR_RENDERER_DEFINITION: 'defineRenderer(): %s.',
  HICKORY_ERR_RENDERER_OPTIONS: 'Renderer "%s" got a bad option: %s.',
  HICKORY_ERR_RENDERER_NOT_READY: 'Renderer "%s" was asked to render "%s" before the kernel was ready: await kernel.ready() first.',
  HICKORY_ERR_RENDERER_TEMPLATE_NAME:
    'Template name %s (engine "%s") does not name a file inside template_path %s: use a relative name such as "books/list.html", without "..", "\\" or NUL.',
  HICKORY_ERR_RENDERER_TEMPLATE_MISSING: 'Template "%s" (engine "%s") was not found under template_path %s.',
  HICKORY_ERR_RENDERER_TEMPLATE_FAILED: 'Template "%s" (engine "%s") failed%s: %s',
} as const);

/** A code of {@link RENDERER_ERRORS}. */
export type RendererErrorCode = keyof typeof RENDERER_ERRORS;

/**
 * Builds a {@link HickoryError} of this package (configuration and definition mistakes).
 *
 * @example
 * ```ts
 * throw rendererError('HICKORY_ERR_RENDERER_DEFINITION', 'a renderer needs a name');
 * ```
 */
export function rendererError(code: RendererErrorCode, ...args: unknown[]): HickoryError {
  return tableError(RENDERER_ERRORS, code, ...args);
}

/** Where a template failed. */
export interface TemplateLocation {
  /** The template name, relative to `template_path` (the innermost one for includes). */
  readonly template: string;
  /** The engine's name (`ejs`, `nunjucks`, …). */
  readonly engine: string;
  /** 1-based line, when the engine knows it. */
  readonly line?: number | undefined;
  /** 1-based column, when the engine knows it. */
  readonly column?: number | undefined;
}

type TemplateCode = 'HICKORY_ERR_RENDERER_TEMPLATE_NAME' | 'HICKORY_ERR_RENDERER_TEMPLATE_MISSING' | 'HICKORY_ERR_RENDERER_TEMPLATE_FAILED';

/**
 * A template that is missing, misnamed or failed while rendering. It names the template, the
 * engine and (when known) the line; the kernel logs it and answers a generic 500.
 *
 * @example
 * ```ts
 * try { await kernel.render('page.ejs', ns); }
 * catch (e) { if (e instanceof TemplateError) console.log(e.template, e.engine, e.line); }
 * ```
 */
export class TemplateError extends HickoryError implements TemplateLocation {
  readonly template: string;
  readonly engine: string;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(code: TemplateCode, where: TemplateLocation, args: readonly unknown[], cause?: unknown) {
    const built = tableError(RENDERER_ERRORS, code, ...args);
    super(code, built.message, cause === undefined ? undefined : { cause });
    this.name = 'TemplateError';
    this.template = where.template;
    this.engine = where.engine;
    this.line = where.line;
    this.column = where.column;
    // Engines annotate errors as they bubble out of nested templates (ejs rewrites `message`
    // in every enclosing template). Ours already names the innermost template and line, so
    // later rewrites are ignored instead of throwing in the engine's strict-mode code.
    const message = built.message;
    Object.defineProperty(this, 'message', { get: () => message, set: () => {}, enumerable: false, configurable: true });
  }
}

/**
 * The error for a template that failed while compiling or rendering; `detail` replaces the
 * cause's message in the text.
 *
 * @example
 * ```ts
 * throw templateFailed({ template: 'page.ejs', engine: 'ejs', line: 3 }, error);
 * ```
 */
export function templateFailed(where: TemplateLocation, cause: unknown, detail?: string): TemplateError {
  const at = where.line === undefined ? '' : ` at line ${where.line}${where.column === undefined ? '' : `, column ${where.column}`}`;
  return new TemplateError('HICKORY_ERR_RENDERER_TEMPLATE_FAILED', where, [where.template, where.engine, at, detail ?? describeCause(cause)], cause);
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name === 'Error' ? '' : `${cause.name}: `}${cause.message}`;
  return String(cause);
}
