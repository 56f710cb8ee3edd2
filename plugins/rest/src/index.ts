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
export { RestController, routeResource, type RouteResult } from './rest-controller.ts';
export { REST_ERRORS, restError, type RestErrorCode } from './errors.ts';
export { customActionsOf, RESERVED_ACTIONS, type CustomAction, type CustomActions } from './custom-actions.ts';
export { chooseHandler, allowedVerbs, exposedAt, requiredPositional, REST_NAMES, type Choice, type RestView } from './select.ts';
export { findChild, type ChildMatch } from './children.ts';
export { requestVerb, HTTP_METHODS, type RequestVerb } from './verbs.ts';
export { checkRestControllers } from './check.ts';
