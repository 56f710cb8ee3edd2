import { HTTPError, request } from '@hickory/core';
import { expose, route } from '@hickory/dispatch';

function describeOriginal(fallback: number) {
  const error = request.environ['hickory.original_exception'];
  if (error instanceof HTTPError) {
    return { status: error.status, title: error.title, detail: error.status < 500 ? (error.detail ?? '') : 'Something went wrong on our side.' };
  }
  return { status: fallback, title: 'Error', detail: '' };
}

/**
 * `/error/404`, `/error/500` and `/error/other`: the error documents of the sandbox (config
 * `errors`), rendered with nunjucks and ejs on the site's layout from
 * `request.environ['hickory.original_exception']`. `other` serves the rest of the statuses a
 * visitor can meet (400, 405, 409, 413, 418, 429): the status and headers of the error are kept.
 *
 * @example
 * ```ts
 * createApp({ root, errors: { 404: '/error/404', 500: '/error/500', 429: '/error/other' } });
 * ```
 */
export class ErrorController {}

route(ErrorController, '404', expose('errors/404.njk')(function notFound() {
  return describeOriginal(404);
}));
route(ErrorController, '500', expose('errors/error.ejs')(function serverError() {
  return describeOriginal(500);
}));
route(ErrorController, 'other', expose('errors/error.ejs')(function otherError() {
  return describeOriginal(500);
}));
