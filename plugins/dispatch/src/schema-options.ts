import { exposureRecord } from './exposure.ts';

let declared = 0;

/**
 * How many `args`/`body` schemas were declared in this process: with none, dispatch taps no
 * `onAbort` hook (apps without schemas keep an untapped error path).
 *
 * @example
 * ```ts
 * if (declaredSchemaCount() > 0) kernel.hooks.onAbort.tap(…);
 * ```
 */
export function declaredSchemaCount(): number {
  return declared;
}

/**
 * Checks the shape of the `args` and `body` options of `expose`/`when` (the schemas themselves
 * are checked at `ready()`, where the parameters are known): returns why they are wrong, or
 * `undefined`.
 *
 * @example
 * ```ts
 * schemaOptionsProblem([z.string()], undefined); // '`args` must be an object: parameter name → schema'
 * ```
 */
export function schemaOptionsProblem(args: unknown, body: unknown): string | undefined {
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return '`args` must be an object: parameter name → schema';
  if (body !== undefined && typeof body !== 'boolean' && (typeof body !== 'object' || body === null) && typeof body !== 'function') {
    return '`body` must be true, false, or a schema of the body';
  }
  return undefined;
}

/**
 * Records `args` and `body` on a function's exposure: `body: true` reads the body even where it is
 * ignored; a body schema does too (declaring the body's shape asks for it) and is kept for
 * validation. Returns why they conflict with an earlier exposure of the same function, or `undefined`.
 *
 * @example
 * ```ts
 * recordSchemaOptions(fn, { id: z.coerce.number() }, undefined);
 * ```
 */
export function recordSchemaOptions(fn: Function, args: unknown, body: unknown): string | undefined {
  const record = exposureRecord(fn);
  if (args !== undefined || (body !== undefined && typeof body !== 'boolean')) declared++;
  if (args !== undefined) {
    if (record.args !== undefined) return '`args` is given twice (on two stacked exposures): give it once';
    // A copy without a prototype: a later change to the caller's object does not move the check.
    record.args = Object.freeze(Object.assign(Object.create(null) as Record<string, unknown>, args));
  }
  if (body === true) record.body = true;
  else if (body !== undefined && body !== false) {
    if (record.bodySchema !== undefined && record.bodySchema !== body) return 'a body schema is given twice (on two stacked exposures): give it once';
    record.body = true;
    record.bodySchema = body;
  }
  return undefined;
}
