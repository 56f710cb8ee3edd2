import { abort, response } from '@hickory/core';
import { expose } from '@hickory/dispatch';

/**
 * `/status/...`: custom status codes set by a controller, and `abort()`.
 *
 * @example
 * ```ts
 * (await app.inject('/status/forbidden')).statusCode; // 403
 * ```
 */
export class StatusController {
  @expose('layout/page.ejs')
  index() {
    return { title: 'Status codes', body: '<h1>Status codes</h1><ul><li><a href="forbidden">403 with a text body</a></li><li><a href="non-authoritative">203</a></li><li><a href="teapot">abort(418)</a></li><li><a href="broken">a handler that throws (500)</a></li></ul>\n' };
  }

  @expose({ content_type: 'text/plain' })
  forbidden(): string {
    response.status = 403;
    return 'You may not see this.\n';
  }

  @expose({ template: 'json', route: 'non-authoritative' })
  nonAuthoritative() {
    response.status = 203;
    return { source: 'a cache somewhere' };
  }

  @expose()
  teapot(): never {
    abort(418, 'I am a teapot.');
  }

  @expose()
  broken(): never {
    throw new Error('a bug in a controller (the client only sees a generic 500 page)');
  }
}
