import { jsonify, Response, type Kernel } from '@hickory/core';
import { dispatchError } from './errors.ts';
import type { Awaitable } from './awaitable.ts';
import type { Rendering } from './exposure.ts';
import type { HandlerFacts } from './handler-facts.ts';
import { controllerName, describeValue } from './names.ts';
import { declaredResponseCount } from './response-options.ts';
import { writeSchemaJson } from './response-json.ts';

/**
 * Turns a controller's return value into the response, by its rendering: a `Response` replaces
 * the response; `'json'` serializes the value (`null` → `null`, `undefined` → no body) — through
 * the method's compiled serializer when it declared a response schema for this rendering; without a
 * template a string or bytes are the body; a template renders the value (its namespace, `{}` when
 * `undefined`) through `kernel.renderNow()`. The rendering's media type is set unless the controller
 * set a `Content-Type` itself; a status the controller set is kept. At once unless the template
 * engine must wait. The label for error messages is made only on error: from `controller` and the
 * method `fnOrLabel`, or given as is. `facts`, when the caller keeps them for `fnOrLabel`, spare
 * reading its response serializer from the registry again.
 *
 * @example
 * ```ts
 * const replaced = await renderValue(kernel, rendering, value, response, controller, fn);
 * ```
 */
export function renderValue(
  kernel: Kernel,
  rendering: Rendering,
  value: unknown,
  response: Response,
  controller: object | undefined,
  fnOrLabel: Function | string,
  facts?: HandlerFacts,
): Awaitable<Response | undefined> {
  if (value instanceof Response) return value;
  const template = rendering.template;
  if (template === 'json') {
    if (value === undefined) return undefined;
    // A method with a response schema (`expose('json', { response })`) writes through its serializer.
    const written = declaredResponseCount() > 0 && typeof fnOrLabel === 'function' ? writeSchemaJson(kernel, rendering, value, response, controller, fnOrLabel, facts) : false;
    if (written === false) response.body = jsonify.encode(value);
    else if (written !== true) {
      return written.then(() => {
        setType(response, rendering);
        return undefined;
      });
    }
  } else if (template === undefined) {
    if (value === undefined) {
      if (response.hasBody) setType(response, rendering);
      return undefined;
    }
    if (typeof value === 'string' || value instanceof Uint8Array) response.body = value;
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') response.body = String(value);
    else throw dispatchError('HICKORY_ERR_DISPATCH_NO_TEMPLATE', labelOf(controller, fnOrLabel), describeValue(value));
  } else if (typeof value === 'string') {
    response.body = value;
  } else {
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw dispatchError('HICKORY_ERR_DISPATCH_BAD_NAMESPACE', labelOf(controller, fnOrLabel), describeValue(value), template);
    }
    // The text itself when the engine renders without waiting: no promise on the request path.
    const text = kernel.renderNow(template, (value ?? {}) as Record<string, unknown>);
    if (typeof text !== 'string') {
      return text.then((rendered) => {
        response.body = rendered;
        setType(response, rendering);
        return undefined;
      });
    }
    response.body = text;
  }
  setType(response, rendering);
  return undefined;
}

function labelOf(controller: object | undefined, fnOrLabel: Function | string): string {
  if (typeof fnOrLabel === 'string') return fnOrLabel;
  return `${controller === undefined ? '' : controllerName(controller)}.${fnOrLabel.name || '(anonymous)'}`;
}

// The Content-Type header for each rendering's media type (with its charset), made once.
const typeHeaders = new Map<string, string>();

function setType(response: Response, rendering: Rendering): void {
  const headers = response.headerMap;
  if (headers.hasKey('content-type')) return;
  const known = typeHeaders.get(rendering.contentType);
  if (known !== undefined) {
    // Checked when it was first made (below).
    headers.setKnown('content-type', 'Content-Type', known);
    return;
  }
  response.content_type = rendering.contentType;
  const made = headers.get('content-type');
  if (typeof made === 'string' && typeHeaders.size < 256) typeHeaders.set(rendering.contentType, made);
}
