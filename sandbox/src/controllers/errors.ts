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
 * `/error/404` and `/error/500`: the error documents of the sandbox (config `errors`), rendered
 * with nunjucks and ejs from `request.environ['hickory.original_exception']`.
 *
 * @example
 * ```ts
 * createApp({ root, errors: { 404: '/error/404', 500: '/error/500' } });
 * ```
 */
export class ErrorController {}

route(ErrorController, '404', expose('errors/404.njk')(function notFound() {
  return describeOriginal(404);
}));
route(ErrorController, '500', expose('errors/500.ejs')(function serverError() {
  return describeOriginal(500);
}));
