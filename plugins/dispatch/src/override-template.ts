import type { Request } from '@hickory/core';
import { currentExchange } from '@hickory/core/kit';
import { overrideRendering } from './call.ts';
import { dispatchError } from './errors.ts';
import { renderingFrom } from './expose.ts';
import { isMediaType } from './media-type.ts';
import { describeValue } from './names.ts';

/**
 * Called inside a handler: renders what it returns with `template` (a template path, `'json'`, an
 * `engine:path`) and, when given, the media type `content_type`, instead of the rendering its
 * `@expose` chose (Pecan's `override_template`). With `use_context_locals: false`, pass the request
 * the handler received as the third argument.
 *
 * @example
 * ```ts
 * @expose('json') show(format = 'json') {
 *   if (format === 'html') override_template('books/show.ejs');
 *   return { book };
 * }
 * ```
 */
export function override_template(template: string, content_type?: string, request?: Request): void {
  const shown = [template, content_type].filter((v) => v !== undefined).map((v) => describeValue(v)).join(', ');
  if (typeof template !== 'string' || template.length === 0) throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, 'the template must be a non-empty string');
  if (content_type !== undefined && !isMediaType(content_type)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, `content_type ${describeValue(content_type)} is not a media type such as "text/plain"`);
  }
  const current = request ?? currentExchange()?.request;
  if (current === undefined) {
    throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, 'called outside a request (with use_context_locals: false, pass the request the handler received as the third argument)');
  }
  if (!overrideRendering(current, renderingFrom(template, content_type, shown))) {
    throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, 'called outside a handler that dispatch calls');
  }
}
