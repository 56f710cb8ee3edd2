import { checkDecorated, isSpecialName, type MethodMarker } from './decorator.ts';
import { dispatchError } from './errors.ts';
import { exposureRecord } from './exposure.ts';
import { renderingFrom } from './expose.ts';
import { describeOptions, describeValue } from './names.ts';
import { recordResponse, responseOptionProblem } from './response-options.ts';
import { recordSchemaOptions, schemaOptionsProblem } from './schema-options.ts';
import { recordStatus, statusOptionProblem } from './success-status.ts';
import type { ArgumentSchemas, SchemaMarker } from './schema-types.ts';
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** Options of {@link when}. */
export interface WhenOptions {
  /** The HTTP method (or methods) this handler answers, e.g. `'POST'`. */
  method: string | readonly string[];
  /** Rendering of this handler; omitted: the generic method's renderings. */
  template?: string;
  /** Media type of this handler's rendering. */
  content_type?: string;
  /**
   * `true`: read the request body even when `method` is OPTIONS or TRACE, whose bodies are
   * otherwise ignored (as `expose({ body: true })` does for the generic method's GET and HEAD).
   * A Standard Schema: validate the parsed body before this handler, as `expose({ body })` does.
   */
  body?: boolean | StandardSchemaV1;
  /** Standard Schemas by parameter name of this handler, as `expose({ args })`. */
  args?: ArgumentSchemas;
  /** With `template: 'json'`: the schema of this handler's JSON answer, as `expose('json', { response })`. */
  response?: StandardSchemaV1;
  /** The success status this handler answers with (`201`), as `expose({ status })`. */
  status?: number;
}

const METHOD = /^[A-Za-z]+$/;
const WHEN_OPTIONS = new Set(['method', 'template', 'content_type', 'body', 'args', 'response', 'status']);

/**
 * Attaches a handler for an HTTP method to the generic method `name` of the same class (linked
 * when the class is first routed). The handler is never reachable by its own name.
 *
 * @example
 * ```ts
 * class Root {
 *   @expose({ generic: true, template: 'json' }) items() { return { method: 'GET' }; }
 *   @when('items', { method: 'POST' }) items_post(name: string) { return { name }; }
 *   @when('items', { method: 'PUT', args: { count: z.coerce.number() } }) items_put(count: number) { return { count }; }
 * }
 * ```
 */
export function when<const A extends ArgumentSchemas>(name: string, options: WhenOptions & { args: A }): SchemaMarker<A>;
export function when(name: string, options: WhenOptions): MethodMarker;
export function when(name: string, options: WhenOptions): MethodMarker {
  const shown = `${describeValue(name)}, ${describeOptions(options)}`;
  if (typeof name !== 'string' || name.length === 0) throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, 'the first argument names the generic method');
  if (isSpecialName(name)) throw dispatchError('HICKORY_ERR_DISPATCH_GENERIC_SPECIAL', 'this class', name);
  if (typeof options !== 'object' || options === null) throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, 'options { method } are required');
  for (const key of Object.keys(options)) {
    if (!WHEN_OPTIONS.has(key)) {
      throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, `unknown option "${key}" (options: method, template, content_type, body, args, response, status)`);
    }
  }
  const problem = schemaOptionsProblem(options.args, options.body) ?? responseOptionProblem(options.response, options.template) ?? statusOptionProblem(options.status);
  if (problem !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, problem);
  const listed = typeof options.method === 'string' ? [options.method] : options.method;
  if (!Array.isArray(listed) || listed.length === 0 || !listed.every((m) => typeof m === 'string' && METHOD.test(m))) {
    throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, '`method` must be an HTTP method name such as "POST" (or a list of them)');
  }
  const methods = Object.freeze([...new Set(listed.map((m) => m.toUpperCase()))]);
  if (options.template !== undefined && (typeof options.template !== 'string' || options.template.length === 0)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, '`template` must be a non-empty string');
  }
  const rendering =
    options.template !== undefined || options.content_type !== undefined ? renderingFrom(options.template, options.content_type, shown) : undefined;
  return ((value: Function, context?: ClassMethodDecoratorContext) => {
    const own = checkDecorated('when', value, context);
    if (own === name) throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, `a handler cannot be attached to itself ("${own}")`);
    const record = exposureRecord(value);
    if (record.when && record.when.target !== name) {
      throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, `this handler is already attached to "${record.when.target}"`);
    }
    record.when = Object.freeze({ target: name, methods: Object.freeze([...new Set([...(record.when?.methods ?? []), ...methods])]) });
    if (rendering) record.renderings.unshift(rendering);
    const conflict = recordSchemaOptions(value, options.args, options.body) ?? (rendering === undefined ? undefined : recordResponse(value, options.response, rendering)) ?? recordStatus(value, options.status);
    if (conflict !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_ARGS', shown, conflict);
    return value;
  }) as MethodMarker;
}
