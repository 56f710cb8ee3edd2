/**
 * `@hickory/rest`: `RestController`, resources routed by HTTP verb and method name (`get_one`,
 * `get_all`, `post`, `put`, `delete`, …), nested resources and custom actions, on top of object
 * dispatch's `_route`. `restPlugin` adds dispatch and checks REST controllers at `ready()`.
 *
 * @example
 * ```ts
 * import { createKernel } from '@hickory/core';
 * import { expose } from '@hickory/dispatch';
 * import { RestController, restPlugin } from '@hickory/rest';
 * class Books extends RestController { @expose('json') get_all() { return []; } }
 * class Root { books = new Books(); }
 * const app = createKernel({ root: new Root() }).use(restPlugin);
 * ```
 */
export { restPlugin } from './plugin.ts';
export { RestController, type RouteResult } from './rest-controller.ts';
export { REST_ERRORS, type RestErrorCode } from './errors.ts';
