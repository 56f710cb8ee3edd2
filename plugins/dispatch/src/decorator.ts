import { dispatchError } from './errors.ts';
import { SPECIAL_NAMES, describeValue } from './names.ts';
import { markControllerMethod } from './class-methods.ts';

/**
 * What `expose(...)`, `when(...)` return: a TC39 method decorator that also works as a plain
 * call on a function (`expose('json')(fn)`), returning the function unchanged.
 */
export type MethodMarker = <F extends (...args: any[]) => any>(value: F, context?: ClassMethodDecoratorContext) => F;

/**
 * Checks what a marker was applied to (a function; as a decorator, a public instance method)
 * and returns the method name when known. A decorator compiled the legacy way
 * (`experimentalDecorators`) is refused with an error naming that setting.
 *
 * @example
 * ```ts
 * const name = checkDecorated('expose', value, context); // 'index'
 * ```
 */
export function checkDecorated(decorator: string, value: unknown, context: unknown): string | undefined {
  refuseLegacyDecorator(decorator, value, context);
  if (context !== undefined) {
    const ctx = context as Partial<ClassMethodDecoratorContext> & { kind?: string };
    const name = typeof ctx.name === 'string' ? ctx.name : String(ctx.name);
    if (ctx.kind !== 'method') throw dispatchError('HICKORY_ERR_DISPATCH_DECORATOR_TARGET', decorator, name, `a ${ctx.kind ?? 'value that is not a class element'}`);
    if (ctx.private) throw dispatchError('HICKORY_ERR_DISPATCH_DECORATOR_TARGET', decorator, name, 'a private method, which no URL can reach');
    if (ctx.static) throw dispatchError('HICKORY_ERR_DISPATCH_DECORATOR_TARGET', decorator, name, 'a static method; routing uses instances');
    if (typeof value !== 'function') throw dispatchError('HICKORY_ERR_DISPATCH_DECORATOR_TARGET', decorator, name, describeValue(value));
    markControllerMethod(value);
    return name;
  }
  if (typeof value !== 'function') throw dispatchError('HICKORY_ERR_DISPATCH_DECORATOR_TARGET', decorator, describeValue(value), 'not a function');
  return undefined;
}

/**
 * The check every Hickory decorator makes first: one compiled the legacy way
 * (`experimentalDecorators`: called as `(prototype, name, descriptor)` on a method or field) is
 * refused with `HICKORY_ERR_DISPATCH_LEGACY_DECORATOR`, naming that setting and the fix, instead of
 * misreading the prototype as its target. (A legacy class decorator is called as `(Class)`, which
 * works as a plain call does.) For plugins' own decorators, through `@hickory/dispatch/kit`.
 *
 * @example
 * ```ts
 * return (target: Function, context?: ClassMethodDecoratorContext) => {
 *   refuseLegacyDecorator('audited', target, context); // @audited on Books.show was called as a legacy decorator …
 *   …
 * };
 * ```
 */
export function refuseLegacyDecorator(decorator: string, value: unknown, context: unknown): void {
  // A legacy decorator gets (prototype, name, descriptor): the second argument is the name itself.
  if (typeof context !== 'string' && typeof context !== 'symbol') return;
  const owner = typeof value === 'function' ? value.name : (value as { constructor?: { name?: string } } | null)?.constructor?.name;
  throw dispatchError('HICKORY_ERR_DISPATCH_LEGACY_DECORATOR', decorator, `${owner || 'a class'}.${String(context)}`);
}

/** True when `name` is a special method (`_lookup`, `_default`, `_route`). */
export function isSpecialName(name: string | undefined): boolean {
  return name !== undefined && SPECIAL_NAMES.has(name);
}
