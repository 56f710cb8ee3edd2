// The two ways an app hands the request to its handlers (the `use_context_locals` key), so that
// one behaviour table runs in both: its handlers are declared once, in the context-locals style,
// and `mode.handler` gives each the signature the mode calls it with.
import { test } from 'node:test';
import { Request, Response } from '@hickory/core';
import { parametersOf } from '@hickory/dispatch/kit';

/**
 * A method decorator (also callable on a plain function) that returns the handler to expose.
 *
 * @example
 * ```ts
 * class Root { @expose() @mode.handler show(id: string) { return id; } }
 * ```
 */
type HandlerShape = <F extends Function>(fn: F, context?: ClassMethodDecoratorContext) => F;

/**
 * One way of running an app: its name in test titles, its configuration, its handler shape.
 *
 * @example
 * ```ts
 * const app = createApp({ root: tree(mode), logger: false, ...mode.config });
 * ```
 */
export interface Mode {
  /** `'context locals'` or `'explicit'`, shown in test names. */
  readonly name: string;
  /** Spread into the app's configuration: `{ use_context_locals }`. */
  readonly config: { readonly use_context_locals: boolean };
  /**
   * Put below `@expose()`/`@when()`: with context locals the method as written; explicit, a
   * function taking `(request, response, ...the method's parameters)` that checks the two and
   * calls the method with the rest.
   */
  readonly handler: HandlerShape;
}

// The generated function's own names, which a parameter would shadow.
const RESERVED = new Set(['request', 'response', '__method__', '__check__']);

/**
 * Turns `show(id, format = 'html')` into `handler(request, response, id, format = undefined)`,
 * which calls `show(id, format)`. Argument mapping reads parameter names from the function's
 * source, so the names (and which are optional or rest) must be in the generated source itself;
 * the method's own defaults still apply, because a missing optional arrives as `undefined`.
 *
 * @example
 * ```ts
 * const explicit = explicitHandler(function show(id: string, format = 'html') { return `${id} ${format}`; });
 * explicit.call(root, request, response, '7'); // '7 html'
 * ```
 */
function explicitHandler<F extends Function>(fn: F): F {
  const declared: string[] = [];
  const passed: string[] = [];
  for (const p of parametersOf(fn).list) {
    // Unsupported shapes fail loudly here rather than as a puzzling mapping difference in a table.
    if (p.name === null || RESERVED.has(p.name)) {
      throw new Error(`explicitHandler(${fn.name}): parameters must be plain names other than ${[...RESERVED].join(', ')}`);
    }
    declared.push(p.rest ? `...${p.name}` : p.required ? p.name : `${p.name} = undefined`);
    passed.push(p.rest ? `...${p.name}` : p.name);
  }
  const source = `return function handler(${['request', 'response', ...declared].join(', ')}) {
  __check__(request, response);
  return __method__.call(this, ${passed.join(', ')});
};`;
  const check = (request: unknown, response: unknown) => checkPair(request, response, fn.name);
  const wrapper = new Function('__method__', '__check__', source)(fn, check) as F;
  Object.defineProperty(wrapper, 'name', { value: fn.name });
  return wrapper;
}

// A handler called without the two would map its arguments one place off: say so (a 500).
function checkPair(request: unknown, response: unknown, name: string): void {
  if (!(request instanceof Request) || !(response instanceof Response)) {
    throw new Error(`${name} was not called with (request, response, ...): use_context_locals: false`);
  }
}

/**
 * Both modes: default context locals, then `use_context_locals: false`.
 *
 * @example
 * ```ts
 * for (const mode of MODES) createApp({ root: tree(mode), logger: false, ...mode.config });
 * ```
 */
const MODES: readonly Mode[] = Object.freeze([
  { name: 'context locals', config: { use_context_locals: true }, handler: (fn) => fn },
  { name: 'explicit', config: { use_context_locals: false }, handler: (fn) => explicitHandler(fn) },
]);

/**
 * Registers one test per mode, named `<title> [<mode>]`, asserting the same outcomes in each.
 *
 * @example
 * ```ts
 * testInBothModes('GET / answers home', async (mode) => {
 *   const app = createApp({ root: tree(mode), logger: false, ...mode.config });
 *   assert.equal((await app.inject('/')).body, 'home');
 *   await app.close();
 * });
 * ```
 */
export function testInBothModes(title: string, body: (mode: Mode) => Promise<void>): void {
  for (const mode of MODES) test(`${title} [${mode.name}]`, () => body(mode));
}
