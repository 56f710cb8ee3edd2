import { Kernel } from '@hickory/core';
import { coreError } from '@hickory/core/kit';
import { openApiDocument, routeMap, type OpenApiOptions, type RouteInfo } from '@hickory/dispatch';

/**
 * What {@link createApp} makes: a kernel that can also describe its URL space, for tests and tools
 * (the same map `hickory routes` prints).
 *
 * @example
 * ```ts
 * const app = createApp({ root: new RootController() });
 * await app.ready();
 * assert.ok(app.routes().some((r) => r.path === '/books/{id}' && r.methods.includes('PUT')));
 * ```
 */
export class App extends Kernel {
  /**
   * Every route reachable from the root without running a handler (see `routeMap` in
   * `@hickory/dispatch`), with the parameters the app's `use_context_locals` makes the request fill.
   */
  routes(): RouteInfo[] {
    if (!this.isReady) throw coreError('HICKORY_ERR_NOT_READY', 'app.routes()');
    return routeMap(this.root!, this.config);
  }

  /** The OpenAPI 3.1 document of the routes (`hickory routes --openapi`). */
  openapi(options?: OpenApiOptions): ReturnType<typeof openApiDocument> {
    if (!this.isReady) throw coreError('HICKORY_ERR_NOT_READY', 'app.openapi()');
    return openApiDocument(this, options);
  }
}
