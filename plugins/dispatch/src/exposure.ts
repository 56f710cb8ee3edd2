/**
 * The exposure registry: which functions are exposed, how they render, and how they route.
 * It lives in a WeakMap owned by this module, never in a property of the function, so a polluted
 * `Object.prototype.exposed` cannot expose anything.
 */

/** One way of rendering a method's return value. */
export interface Rendering {
  /** `undefined`: the value is the body itself; `'json'`: JSON; otherwise a template for the `render` hook. */
  readonly template: string | undefined;
  /** The media type sent (may carry parameters, e.g. `text/csv; charset=latin1`). */
  readonly contentType: string;
  /** The media type without parameters, lower-cased (what negotiation compares). */
  readonly mediaType: string;
  /**
   * True for a plain `@expose()` (no template, no `content_type`): with `default_renderer: 'json'`
   * such a method renders JSON, as in Pecan.
   */
  readonly implicit?: boolean;
}

/** A `when()` link from a handler to the generic method it serves. */
interface WhenLink {
  /** Name of the generic method of the same class. */
  readonly target: string;
  /** Upper-case HTTP methods this handler answers. */
  readonly methods: readonly string[];
}

/** What the registry knows about an exposed function. */
export interface Exposure {
  /** Renderings, outermost `@expose` first; the first one is the default. */
  readonly renderings: readonly Rendering[];
  /** True when exposed with `generic: true`. */
  readonly generic: boolean;
  /** The explicit segment it answers at instead of its name. */
  readonly route: string | undefined;
  /** Set for a `when()` handler: such a function is never routable by its own name. */
  readonly when: WhenLink | undefined;
  /** True when exposed with `body: true` (or a body schema): it reads a body even on GET, HEAD or OPTIONS. */
  readonly body: boolean;
  /** The `args` option as given: parameter name → schema (checked at `ready()`, see handlerSchemas). */
  readonly args: Readonly<Record<string, unknown>> | undefined;
  /** The `body` option when it is a schema (checked at `ready()`). */
  readonly bodySchema: unknown;
  /** True when exposed with `accept_noncanonical: true`: an index that answers without its slash too. */
  readonly acceptNoncanonical: boolean;
  /** The `response` option: its schema and the JSON rendering it was given with (checked at `ready()`). */
  readonly response: ResponseDeclaration | undefined;
  /** The `status` option: the success status it answers with (`201`), instead of 200. */
  readonly status: number | undefined;
  /** The `csrf` option as given (`false`: exempt from `@hickory/csrf`), `undefined` when not given. */
  readonly csrf: boolean | undefined;
}

/** A response schema as `expose('json', { response })` declared it. */
interface ResponseDeclaration {
  /** The schema as given (a Standard Schema once checked at `ready()`). */
  readonly schema: unknown;
  /** The rendering it describes: other renderings of the same method (templates) ignore it. */
  readonly rendering: Rendering;
}

interface MutableExposure {
  renderings: Rendering[];
  generic: boolean;
  route: string | undefined;
  when: WhenLink | undefined;
  body: boolean;
  args: Readonly<Record<string, unknown>> | undefined;
  bodySchema: unknown;
  acceptNoncanonical: boolean;
  response: ResponseDeclaration | undefined;
  status: number | undefined;
  csrf: boolean | undefined;
}

const registry = new WeakMap<Function, MutableExposure>();

/**
 * Gives `wrapper` the exposure of `original` (the same record: what either is exposed with later
 * shows on both), for `wraps()`; nothing when `original` is not exposed.
 *
 * @example
 * ```ts
 * shareExposure(Books.prototype.show, wrapper);
 * ```
 */
export function shareExposure(original: Function, wrapper: Function): void {
  const record = registry.get(original);
  if (record !== undefined && !registry.has(wrapper)) registry.set(wrapper, record);
}

/**
 * The exposure of a function, or `undefined` when it is not exposed (the only test of exposure).
 *
 * @example
 * ```ts
 * exposureOf(BooksController.prototype.index)?.renderings[0]?.template; // 'json'
 * ```
 */
export function exposureOf(fn: unknown): Exposure | undefined {
  return typeof fn === 'function' ? registry.get(fn) : undefined;
}

/** The registry record of `fn`, created on first use (for `expose`, `when` and `route`). */
export function exposureRecord(fn: Function): MutableExposure {
  let record = registry.get(fn);
  if (!record) {
    record = { renderings: [], generic: false, route: undefined, when: undefined, body: false, args: undefined, bodySchema: undefined, acceptNoncanonical: false, response: undefined, status: undefined, csrf: undefined };
    registry.set(fn, record);
  }
  return record;
}

/** The rendering of a plain `@expose()`: the returned string is HTML. */
const HTML_RENDERING: Rendering = Object.freeze({ template: undefined, contentType: 'text/html', mediaType: 'text/html', implicit: true });

/**
 * The renderings a target answers with: its own, else (for a `when` handler) those of its
 * generic method, else HTML.
 *
 * @example
 * ```ts
 * renderingsOf(RootController.prototype.index); // [{ template: undefined, contentType: 'text/html', … }]
 * ```
 */
export function renderingsOf(fn: Function, generic?: Function): readonly Rendering[] {
  const own = registry.get(fn)?.renderings;
  if (own && own.length > 0) return own;
  const inherited = generic ? registry.get(generic)?.renderings : undefined;
  if (inherited && inherited.length > 0) return inherited;
  return [HTML_RENDERING];
}
