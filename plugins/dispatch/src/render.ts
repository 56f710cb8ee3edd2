import { Response, type Kernel } from '@hickory/core';
import { dispatchError } from './errors.ts';
import type { Rendering } from './exposure.ts';
import { describeValue } from './names.ts';

/**
 * Turns a controller's return value into the response, by its rendering: a `Response` replaces
 * the response; `'json'` serializes the value (`null` → `null`, `undefined` → no body); without a
 * template a string or bytes are the body; a template renders the value (its namespace, `{}` when
 * `undefined`) through `kernel.render()`. The rendering's media type is set unless the controller
 * set a `Content-Type` itself; a status the controller set is kept.
 *
 * @example
 * ```ts
 * return renderValue(kernel, rendering, await fn.apply(controller, args), response, 'Books.index');
 * ```
 */
export async function renderValue(kernel: Kernel, rendering: Rendering, value: unknown, response: Response, label: string): Promise<Response | undefined> {
  if (value instanceof Response) return value;
  const template = rendering.template;
  if (template === 'json') {
    if (value === undefined) return undefined;
    response.body = JSON.stringify(value) ?? 'null';
  } else if (template === undefined) {
    if (value === undefined) {
      if (response.hasBody) setType(response, rendering);
      return undefined;
    }
    if (typeof value === 'string' || value instanceof Uint8Array) response.body = value;
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') response.body = String(value);
    else throw dispatchError('HICKORY_ERR_DISPATCH_NO_TEMPLATE', label, describeValue(value));
  } else if (typeof value === 'string') {
    response.body = value;
  } else {
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw dispatchError('HICKORY_ERR_DISPATCH_BAD_NAMESPACE', label, describeValue(value), template);
    }
    response.body = await kernel.render(template, (value ?? {}) as Record<string, unknown>);
  }
  setType(response, rendering);
  return undefined;
}

function setType(response: Response, rendering: Rendering): void {
  if (!response.headerMap.has('content-type')) response.content_type = rendering.contentType;
}
