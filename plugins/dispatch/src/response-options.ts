import { exposureRecord, type Rendering } from './exposure.ts';

let declared = 0;

/**
 * How many `response` schemas were declared in this process: with none, `ready()` never loads the
 * serializer compiler and JSON rendering never looks for a serializer (an app without response
 * schemas pays nothing for them).
 *
 * @example
 * ```ts
 * if (declaredResponseCount() > 0) await loadResponseCompiler();
 * ```
 */
export function declaredResponseCount(): number {
  return declared;
}

/**
 * Checks the `response` option of `expose`/`when` against the rendering it comes with (the schema
 * itself is checked at `ready()`): returns why it is wrong, or `undefined`.
 *
 * @example
 * ```ts
 * responseOptionProblem(z.object({}), 'books.ejs'); // '`response` describes JSON: …'
 * ```
 */
export function responseOptionProblem(response: unknown, template: string | undefined): string | undefined {
  if (response === undefined) return undefined;
  if ((typeof response !== 'object' && typeof response !== 'function') || response === null) {
    return '`response` must be a schema of the response (a Standard Schema such as z.object({ … }))';
  }
  if (template !== 'json') return "`response` describes a JSON answer: give it with the template 'json', e.g. expose('json', { response: schema })";
  return undefined;
}

/**
 * Records the `response` schema of a function with the JSON rendering it describes. Returns why it
 * conflicts with an earlier exposure of the same function, or `undefined`.
 *
 * @example
 * ```ts
 * recordResponse(fn, z.object({ hello: z.string() }), rendering);
 * ```
 */
export function recordResponse(fn: Function, response: unknown, rendering: Rendering): string | undefined {
  if (response === undefined) return undefined;
  const record = exposureRecord(fn);
  if (record.response !== undefined) return 'a response schema is given twice (on two stacked exposures): give it once';
  declared++;
  record.response = Object.freeze({ schema: response, rendering });
  return undefined;
}
