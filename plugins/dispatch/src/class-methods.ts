// Functions known to be methods of controllers: `this` matters to them, so routing must know whose
// they are (see `routed-owner.ts`). A stand-alone exposed function (`expose()(function hours() {})`)
// is not one: it may be called on whichever controller returned it.
const methods = new WeakSet<Function>();

/**
 * Remembers `fn` as a method of some controller: decorated as a class method, found on a
 * controller's class or held by a controller object.
 *
 * @example
 * ```ts
 * markControllerMethod(Books.prototype.index);
 * ```
 */
export function markControllerMethod(fn: Function): void {
  methods.add(fn);
}

/**
 * True when `fn` is known as a method of some controller ({@link markControllerMethod}).
 *
 * @example
 * ```ts
 * isControllerMethod(Books.prototype.index); // true once decorated with @expose
 * ```
 */
export function isControllerMethod(fn: Function): boolean {
  return methods.has(fn);
}
