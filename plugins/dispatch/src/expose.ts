import { checkDecorated, isSpecialName, type MethodMarker } from './decorator.ts';
import { dispatchError } from './errors.ts';
import { exposureRecord, type Rendering } from './exposure.ts';
import { essence, isMediaType } from './media-type.ts';
import { assertSegment, describeValue } from './names.ts';

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
   * Read the request body even on GET, HEAD or OPTIONS, whose bodies are otherwise ignored (a
   * "fat GET" is input that URL-keyed caches do not see).
   */
  body?: boolean;
}

const OPTION_NAMES = new Set(['template', 'content_type', 'generic', 'route', 'body']);

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
 * ```
 */
export function expose(templateOrOptions?: string | ExposeOptions, maybeOptions?: ExposeOptions): MethodMarker {
  const options = readOptions(templateOrOptions, maybeOptions);
  const rendering = renderingFrom(options.template, options.content_type, describeArgs(templateOrOptions, maybeOptions));
  if (options.route !== undefined) assertSegment(options.route);
  return ((value: Function, context?: ClassMethodDecoratorContext) => {
    const name = checkDecorated('expose', value, context);
    if (options.generic && isSpecialName(name)) throw dispatchError('HICKORY_ERR_DISPATCH_GENERIC_SPECIAL', 'this class', name);
    const record = exposureRecord(value);
    record.renderings.unshift(rendering); // decorators apply innermost first: keep the outermost first
    if (options.generic) record.generic = true;
    if (options.body) record.body = true;
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
    if (!OPTION_NAMES.has(key)) throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, `unknown option "${key}" (options: template, content_type, generic, route, body)`);
  }
  const options = value as ExposeOptions;
  if (options.template !== undefined && (typeof options.template !== 'string' || options.template.length === 0)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, '`template` must be a non-empty string');
  }
  if (options.generic !== undefined && typeof options.generic !== 'boolean') {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, '`generic` must be true or false');
  }
  if (options.body !== undefined && typeof options.body !== 'boolean') {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPOSE_ARGS', shown, '`body` must be true or false');
  }
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
  return Object.freeze({ template, contentType: type, mediaType: essence(type) });
}

function describeArgs(first: unknown, second: unknown): string {
  const parts = [first, second].filter((v) => v !== undefined).map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : describeValue(v)));
  return parts.join(', ');
}
