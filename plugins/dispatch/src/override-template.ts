import type { Request } from '@hickory/core';
import { currentExchange } from '@hickory/core/kit';
import { overrideRendering, renderingFor } from './call.ts';
import { dispatchError } from './errors.ts';
import { renderingFrom } from './expose.ts';
import { isMediaType } from './media-type.ts';
import { describeValue } from './names.ts';

/**
 * Called inside a handler: renders what it returns with `template` (a template path, `'json'`, an
 * `engine:path`) and, when given, the media type `content_type`, instead of the rendering its
 * `@expose` chose (Pecan's `override_template`). `null` drops the template: the handler's string
 * (or bytes) is the body, sent as `content_type` (else the chosen rendering's type), as Pecan's
 * `override_template(None, 'text/plain')`. With `use_context_locals: false`, pass the request the
 * handler received as the third argument.
 *
 * @example
 * ```ts
 * @expose('json') show(format = 'json') {
 *   if (format === 'html') override_template('books/show.ejs');
 *   if (format === 'txt') { override_template(null, 'text/plain'); return `${book.title}\n`; }
 *   return { book };
 * }
 * ```
 */
export function override_template(template: string | null, content_type?: string, request?: Request): void {
  const shown = [template, content_type].filter((v) => v !== undefined).map((v) => describeValue(v)).join(', ');
  if (template !== null && (typeof template !== 'string' || template.length === 0)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, 'the template must be a non-empty string, or null for none');
  }
  if (content_type !== undefined && !isMediaType(content_type)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, `content_type ${describeValue(content_type)} is not a media type such as "text/plain"`);
  }
  const current = request ?? currentExchange()?.request;
  if (current === undefined) {
    throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, 'called outside a request (with use_context_locals: false, pass the request the handler received as the third argument)');
  }
  // null: no template; the type given, else the one negotiation chose.
  const type = template === null ? (content_type ?? renderingFor(current)?.contentType ?? 'text/html') : content_type;
  if (!overrideRendering(current, renderingFrom(template ?? undefined, type, shown))) {
    throw dispatchError('HICKORY_ERR_DISPATCH_OVERRIDE_TEMPLATE', shown, 'called outside a handler that dispatch calls');
  }
}
