import { checkDecorated, isSpecialName, type MethodMarker } from './decorator.ts';
import { dispatchError } from './errors.ts';
import { exposureRecord, type Rendering } from './exposure.ts';
import { essence, isMediaType } from './media-type.ts';
import { assertSegment, describeOptions, describeValue } from './names.ts';
import { recordResponse, responseOptionProblem } from './response-options.ts';
import { recordSchemaOptions, schemaOptionsProblem } from './schema-options.ts';
import { recordStatus, statusOptionProblem } from './success-status.ts';
import type { ArgumentSchemas, SchemaMarker } from './schema-types.ts';
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** Options of {@link expose}. */
export interface ExposeOptions {
  /** `'json'`, or a template path (`books/list.ejs`, `njk:page`); omitted: the value is the body. */
  template?: string;
  /** The media type sent; default `text/html`, or `application/json` for `'json'`. */
  content_type?: string;
  /** Answer GET/HEAD here and other methods through `when()` handlers. */
  generic?: boolean;
  /** Answer only at this segment instead of the method's name. */
  route?: string;
  /**
   * For an index: answer without the trailing slash too, instead of the `force_canonical`
   * redirect (Pecan's `accept_noncanonical`).
   */
  accept_noncanonical?: boolean;
  /**
   * `true`: read the request body even on GET, HEAD or OPTIONS, whose bodies are otherwise ignored
   * (a "fat GET" is input that URL-keyed caches do not see). A Standard Schema: validate the parsed
   * body (JSON, or form variables) before the handler — a failure is a 400 with the issues — and
   * fill named parameters from the properties of its output; the body is then read on any method.
   */
  body?: boolean | StandardSchemaV1;
  /**
   * Standard Schemas by parameter name: each parses that parameter's mapped value (a string from
   * the path or query, a form field, a JSON value) before the call; the handler receives the
   * output. A failure is a 400 with the issues. Checked at `ready()`.
   */
  args?: ArgumentSchemas;
  /**
   * With the template `'json'`: a Standard Schema of the returned value, converted to JSON Schema
   * by its library (zod 4.2+, arktype; valibot through `toStandardJsonSchema`) and compiled at
   * `ready()` into a serializer that writes only the properties it declares (nothing else leaks).
   * Outside production the value is checked with it first (a mismatch is a logged 500). The
   * OpenAPI document shows it as the 200 answer.
   */
  response?: StandardSchemaV1;
  /**
   * The success status the method answers with when it returns normally (`201` for a create),
   * instead of 200; the OpenAPI document shows it. The method may still set another one itself.
   */
  status?: number;
  /**
   * `false` exempts the handler from `@hickory/csrf`'s cross-origin refusal (a webhook, an SSO
   * callback posted by another site). Read by that plugin; dispatch only records it.
   */
  csrf?: boolean;
}

const OPTION_NAMES = new Set(['template', 'content_type', 'generic', 'route', 'accept_noncanonical', 'body', 'args', 'response', 'status', 'csrf']);

/**
 * Exposes a method to routing. Forms: `expose()`, `expose(template)`, `expose(template, options)`,
 * `expose(options)`. Stacked `@expose` calls offer several renderings; the outermost is the default.
 * Works as a TC39 decorator and as a plain call on a function.
 *
 * @example
 * ```ts
 * class Books {
 *   @expose('json') @expose() index() { return { books: [] }; }
 *   @expose({ route: 'best-sellers' }) bestsellers() { return '<h1>Best</h1>'; }
 * }
 * const hours = expose({ content_type: 'text/plain' })(function hours() { return '9-5'; });
 * class Items {
 *   @expose({ template: 'json', args: { id: z.coerce.number().int() } }) show(id: number) { return { id }; }
 *   @expose('json', { response: z.object({ id: z.number() }) }) first() { return { id: 1, secret: 'x' }; } // {"id":1}
 * }
 * ```
 */
export function expose<const A extends ArgumentSchemas>(options: ExposeOptions & { args: A }): SchemaMarker<A>;
export function expose<const A extends ArgumentSchemas>(template: string, options: ExposeOptions & { args: A }): SchemaMarker<A>;
export function expose(templateOrOptions?: string | ExposeOptions, maybeOptions?: ExposeOptions): MethodMarker;
export function expose(templateOrOptions?: string | ExposeOptions, maybeOptions?: ExposeOptions): MethodMarker {
  const options = readOptions(templateOrOptions, maybeOptions);
  const rendering = renderingFrom(options.template, options.content_type, describeArgs(templateOrOptions, maybeOptions));
  if (options.route !== undefined) assertSegment(options.route);
  const responseProblem = responseOptionProblem(options.response, options.template);
  if (responseProblem !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', describeArgs(templateOrOptions, maybeOptions), responseProblem);
  return ((value: Function, context?: ClassMethodDecoratorContext) => {
    const name = checkDecorated('expose', value, context);
    if (options.generic && isSpecialName(name)) throw dispatchError('HICKORY_ERR_DISPATCH_GENERIC_SPECIAL', 'this class', name);
    const record = exposureRecord(value);
    record.renderings.unshift(rendering); // decorators apply innermost first: keep the outermost first
    if (options.generic) record.generic = true;
    if (options.accept_noncanonical) record.acceptNoncanonical = true;
    if (options.csrf !== undefined) record.csrf = options.csrf;
    const conflict = recordSchemaOptions(value, options.args, options.body) ?? recordResponse(value, options.response, rendering) ?? recordStatus(value, options.status);
    if (conflict !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', describeArgs(templateOrOptions, maybeOptions), conflict);
    if (options.route !== undefined) {
      if (record.route !== undefined && record.route !== options.route) {
        throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_TWICE', name ?? value.name, record.route, options.route);
      }
      record.route = options.route;
    }
    return value;
  }) as MethodMarker;
}

function readOptions(first: unknown, second: unknown): ExposeOptions {
  const shown = describeArgs(first, second);
  if (first === undefined || typeof first === 'string') {
    if (typeof first === 'string' && first.length === 0) throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, 'the template must be a non-empty string');
    const rest = second === undefined ? {} : checkOptionObject(second, shown);
    if (rest.template !== undefined && first !== undefined) {
      throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, 'the template is given twice (as the first argument and as `template`)');
    }
    return first === undefined ? rest : { ...rest, template: first };
  }
  if (second !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, 'with an options object first, there is no second argument');
  return checkOptionObject(first, shown);
}

function checkOptionObject(value: unknown, shown: string): ExposeOptions {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, `options must be an object, got ${describeValue(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (!OPTION_NAMES.has(key)) throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, `unknown option "${key}" (options: template, content_type, generic, route, accept_noncanonical, body, args, response, status, csrf)`);
  }
  const options = value as ExposeOptions;
  if (options.template !== undefined && (typeof options.template !== 'string' || options.template.length === 0)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, '`template` must be a non-empty string');
  }
  if (options.generic !== undefined && typeof options.generic !== 'boolean') {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, '`generic` must be true or false');
  }
  if (options.accept_noncanonical !== undefined && typeof options.accept_noncanonical !== 'boolean') {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, '`accept_noncanonical` must be true or false');
  }
  if (options.csrf !== undefined && typeof options.csrf !== 'boolean') {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, '`csrf` must be true or false');
  }
  const problem = schemaOptionsProblem(options.args, options.body) ?? statusOptionProblem(options.status);
  if (problem !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, problem);
  return options;
}

/**
 * The rendering for a template and content type (shared with `when`).
 *
 * @example
 * ```ts
 * renderingFrom('json', undefined, "'json'"); // { template: 'json', contentType: 'application/json', … }
 * ```
 */
export function renderingFrom(template: string | undefined, contentType: unknown, shown: string): Rendering {
  if (contentType !== undefined && !isMediaType(contentType)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, `content_type ${describeValue(contentType)} is not a media type such as "text/plain"`);
  }
  const type = (contentType as string | undefined) ?? (template === 'json' ? 'application/json' : 'text/html');
  if (template === undefined && contentType === undefined) return Object.freeze({ template, contentType: type, mediaType: essence(type), implicit: true });
  return Object.freeze({ template, contentType: type, mediaType: essence(type) });
}

function describeArgs(first: unknown, second: unknown): string {
  const parts = [first, second].filter((v) => v !== undefined).map((v) => describeOptions(v));
  return parts.join(', ');
}
