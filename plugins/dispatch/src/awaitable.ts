/**
 * A value, or a promise of it: what a function on the request path returns when it answers at
 * once unless something really has to wait (an async `_lookup`, `_route`, guard or template).
 * One function per concept: callers that need a promise `await` the result, which costs
 * nothing extra for a plain value; the request path checks `instanceof Promise` and stays
 * synchronous.
 *
 * @example
 * ```ts
 * const found: Awaitable<Resolution | undefined> = walk(root, ['books', '7'], request);
 * const resolution = await found;
 * ```
 */
export type Awaitable<T> = T | Promise<T>;
