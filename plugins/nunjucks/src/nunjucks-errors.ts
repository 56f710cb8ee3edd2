import { templateFailed, TemplateError } from '@hickory/renderer';

interface NunjucksError extends Error {
  lineno?: number;
  colno?: number;
  Update: unknown;
}

function isNunjucksError(value: unknown): value is NunjucksError {
  return value instanceof Error && typeof (value as NunjucksError).Update === 'function';
}

// nunjucks prefixes its message with one "(path)" line per enclosing template, outermost
// first; the last one names the template that failed.
const LOCATION_LINE = /^\s*\(([^()\n]+)\)(?: \[Line \d+(?:, Column \d+)?\])?\s*$/;

function splitMessage(message: string): { path: string | undefined; text: string } {
  const lines = message.split('\n');
  let path: string | undefined;
  let i = 0;
  for (let match; i < lines.length && (match = LOCATION_LINE.exec(lines[i]!)); i++) path = match[1];
  return { path: path === 'unknown path' ? undefined : path, text: lines.slice(i).join('\n').trim() };
}

/**
 * Turns what nunjucks reports into a {@link TemplateError} naming the innermost template and
 * its 1-based line. nunjucks wraps an error once per enclosing template; a wrapped runtime error
 * (one with a `cause`) carries a 0-based position, a parse or compile error a 1-based one, and
 * none at the end of the file (a tag left open): `linesOf` then gives the template's last line.
 * A renderer error from the loader (a missing or misnamed include) is passed on unchanged.
 *
 * @example
 * ```ts
 * env.render(name, data, (error, text) => (error ? reject(toTemplateError(error, name, 'nunjucks')) : resolve(text)));
 * ```
 */
export function toTemplateError(error: unknown, template: string, engine: string, linesOf?: (template: string) => number | undefined): TemplateError {
  if (error instanceof TemplateError) return error;
  if (!isNunjucksError(error)) return templateFailed({ template, engine }, error);
  let inner: NunjucksError = error;
  while (isNunjucksError(inner.cause)) inner = inner.cause;
  if (inner.cause instanceof TemplateError) return inner.cause;
  const runtime = inner.cause instanceof Error;
  const shift = runtime ? 1 : 0;
  const { path, text } = splitMessage(inner.message);
  const failing = path ?? template;
  // A tag left open is found at the end of the file, where nunjucks gives no position: its last line.
  const atEnd = !runtime && inner.lineno === undefined && /end of file/.test(text) ? linesOf?.(failing) : undefined;
  const where = {
    template: failing,
    engine,
    line: inner.lineno === undefined ? atEnd : inner.lineno + shift,
    column: inner.colno === undefined ? undefined : inner.colno + shift,
  };
  // A parse error is told once, by the message: its stack is nunjucks' parser. A runtime error
  // keeps its cause, whose stack shows the filter or global that threw.
  if (!runtime) return templateFailed(where, undefined, text);
  return templateFailed(where, inner.cause);
}
