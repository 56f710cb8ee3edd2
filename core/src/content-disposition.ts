/** Options of {@link contentDisposition}. */
export interface ContentDispositionOptions {
  /** `attachment` (download, the default) or `inline` (show in the browser). */
  type?: 'attachment' | 'inline';
}

// Control characters never reach the header (no CR/LF injection, no NUL in a saved name).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;
// RFC 8187 attr-char: everything else is percent-encoded in `filename*`.
const NOT_ATTR_CHAR = /[^A-Za-z0-9!#$&+\-.^_`|~]/g;

/**
 * Builds a `Content-Disposition` header value for a file name. The name is reduced to its base
 * name and stripped of control characters (CR/LF never get through); quotes and backslashes are
 * escaped. A name outside printable ASCII gets an ASCII `filename` fallback plus the exact name
 * as `filename*=UTF-8''…` (RFC 6266 / RFC 8187).
 *
 * @example
 * ```ts
 * contentDisposition('report.pdf'); // 'attachment; filename="report.pdf"'
 * contentDisposition('résumé.pdf', { type: 'inline' });
 * // `inline; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`
 * response.headers['Content-Disposition'] = contentDisposition(upload.filename);
 * ```
 */
export function contentDisposition(filename: string, options: ContentDispositionOptions = {}): string {
  const type = options.type ?? 'attachment';
  if (type !== 'attachment' && type !== 'inline') throw new TypeError(`contentDisposition: type must be "attachment" or "inline" (got ${String(type)})`);
  const base = String(filename).slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
  const name = base.replace(CONTROL, '');
  if (name.length === 0) return type;
  if (PRINTABLE_ASCII.test(name)) return `${type}; filename=${quote(name)}`;
  return `${type}; filename=${quote(asciiFallback(name))}; filename*=UTF-8''${percentEncode(name)}`;
}

function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

// Accents dropped (é → e), anything else outside printable ASCII becomes `_`.
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\u0020-\u007e]/g, '_');
}

function percentEncode(name: string): string {
  return Buffer.from(name, 'utf8')
    .toString('latin1')
    .replace(NOT_ATTR_CHAR, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
