/**
 * How a controller that routes itself (a `_route`, such as a RestController's) tells the route map
 * what it answers, without a request: a method `[describeRoutes](context)` on the controller. The
 * route map has no other way to see past a `_route`; a controller without one is listed as
 * dynamic (`ANY /books/*`).
 *
 * @example
 * ```ts
 * class Books {
 *   _route(remainder: string[]) { … }
 *   [describeRoutes](): RouteDescription {
 *     return { routes: [{ path: '', methods: ['GET', 'HEAD'], fn: this.list }], children: [] };
 *   }
 * }
 * ```
 */
export const describeRoutes: unique symbol = Symbol.for('hickory.describeRoutes');

/**
 * One route of a self-routing controller, below the controller's own path: `''` for the controller
 * itself, `{}/edit` for a record's edit page. `{}` stands for a segment the request fills; the route
 * map names it after the handler's parameter at the same place (ids come first, in path order).
 */
export interface DescribedRoute {
  readonly path: string;
  /** The HTTP methods it answers (GET with HEAD). */
  readonly methods: readonly string[];
  /** The handler. */
  readonly fn: Function;
}

/** A controller reached below a self-routing one (a nested resource), at a path like `{}/chapters`. */
export interface DescribedChild {
  readonly path: string;
  readonly controller: object;
  /**
   * Set when the path names the child right after its parent, before the ids the parent takes
   * (`books` for `/authors/books/`): how many it skips. The child is then described as reached
   * that way ({@link DescribeContext.skipped}); one controller may be listed both ways.
   */
  readonly skipped?: number;
}

/** What {@link describeRoutes} gives back. */
export interface RouteDescription {
  readonly routes: readonly DescribedRoute[];
  readonly children: readonly DescribedChild[];
  /** True when the description may miss routes (an overridden `_route`): the map keeps the dynamic entry too. */
  readonly partial?: boolean;
}

/** What a controller's {@link describeRoutes} is told. */
export interface DescribeContext {
  /** How many ids its parents already took from the path (they come first in its handlers' arguments). */
  readonly parentIds: number;
  /** True with `use_context_locals: false`: handlers take the request and the response first. */
  readonly explicit: boolean;
  /** Set when reached right after its parent, before that many of the parent's ids ({@link DescribedChild.skipped}). */
  readonly skipped?: number;
}

type Describer = (context: DescribeContext) => RouteDescription;

/**
 * The description of `controller`'s routes when it offers one.
 *
 * @example
 * ```ts
 * routeDescriptionOf(new BooksController(), { parentIds: 0, explicit: false })?.routes.map((r) => r.path); // ['', 'new', '{}', …]
 * ```
 */
export function routeDescriptionOf(controller: object, context: DescribeContext): RouteDescription | undefined {
  const describer = (controller as { [describeRoutes]?: unknown })[describeRoutes];
  return typeof describer === 'function' ? (describer as Describer).call(controller, context) : undefined;
}

/**
 * `path` with each `{}` named after the handler's parameter at that place (`{id}`), or `{id}`,
 * `{id2}`, … where the handler's parameters do not say.
 *
 * @example
 * ```ts
 * namePlaceholders('/authors/{}/books/{}', ['author', 'id']); // '/authors/{author}/books/{id}'
 * ```
 */
export function namePlaceholders(path: string, params: readonly string[]): string {
  let index = 0;
  const used = new Set<string>();
  return path.replace(/\{\}/g, () => {
    const param = params[index];
    index++;
    const name = param !== undefined && /^[A-Za-z_$][\w$]*$/.test(param) && !used.has(param) ? param : index === 1 ? 'id' : `id${index}`;
    used.add(name);
    return `{${name}}`;
  });
}
