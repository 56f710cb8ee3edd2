import { HTTPError } from '@hickory/core';

// Names that would shadow or reach Object.prototype if code ever copied the variables into a plain object.
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Checks the name of a form field (or of a file's field); an empty name or the name of an
 * `Object.prototype` member (`__proto__`, `constructor`, `toString`, …) is a 400.
 *
 * @example
 * ```ts
 * checkFieldName('title'); // 'title'
 * checkFieldName('__proto__'); // throws HTTPError 400
 * ```
 */
export function checkFieldName(name: string | undefined): string {
  if (name === undefined || name.length === 0) throw badName('A form part has no field name.');
  if (RESERVED.has(name)) throw badName(`The field name "${name}" is not allowed.`);
  return name;
}

/**
 * The base name of an uploaded file's name (whatever follows the last `/` or `\`). Empty, `.`,
 * `..`, a reserved name or one with control characters is a 400.
 *
 * @example
 * ```ts
 * checkFileName('C:\\Users\\ann\\report.pdf'); // 'report.pdf'
 * checkFileName('../../etc/passwd'); // 'passwd'
 * ```
 */
export function checkFileName(filename: string | undefined): string {
  const raw = filename ?? '';
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  if (base.length === 0 || base === '.' || base === '..') throw badName('An uploaded file has no file name.');
  if (RESERVED.has(base)) throw badName(`The file name "${base}" is not allowed.`);
  if (CONTROL.test(base)) throw badName('An uploaded file name contains control characters.');
  return base;
}

function badName(detail: string): HTTPError {
  return new HTTPError(400, detail, { Connection: 'close' });
}
