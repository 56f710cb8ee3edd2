import { AsyncLocalStorage } from 'node:async_hooks';
import { coreError } from './errors.ts';
import { Request } from './request.ts';
import { Response } from './response.ts';
import type { Deadline } from './deadline.ts';
import { discardBody } from './discard-body.ts';

/** The objects of one request, as held by the async context. */
export interface Exchange {
  request: Request;
  response: Response;
  /** The request's time budget, once it first had to wait (see `deadline.ts`). */
  deadline: Deadline | undefined;
  /**
   * Where the answer went on once this exchange was cut off (`cut-off.ts`): the exchange of the
   * 503 that was sent instead of this one's response.
   */
  successor?: Exchange;
}

// The async context that carries the current Exchange through a request.
const exchangeStorage = new AsyncLocalStorage<Exchange>();

// Whether this Node keeps async context in frames (AsyncContextFrame: on by default from Node 24,
// behind a flag on 22). There, `run()` copies the context twice per request (to enter, and again
// to leave), ~200 ns a request on Node 26; the async-hooks implementation of older lines makes
// `run()` itself cheap (~10 ns).
function asyncContextFrames(): boolean {
  const flags = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 24 ? !flags.includes('--no-async-context-frame') : flags.includes('--experimental-async-context-frame');
}

/**
 * Serves `exchange` inside its async context. With async context frames the context is entered
 * once and not left: the request's listener is called by Node from a socket's callback, and Node
 * gives the callback's caller its own context back when the callback returns (as it does when a
 * promise continuation ends: `inject()` calls it from one). Elsewhere the context is entered and
 * left with `run()`.
 *
 * @example
 * ```ts
 * return serveInContext(exchange, this.serve, res);
 * ```
 */
export const serveInContext: <R, T>(exchange: Exchange, serve: (exchange: Exchange, res: R) => T, res: R) => T = asyncContextFrames()
  ? (exchange, serve, res) => {
      exchangeStorage.enterWith(exchange);
      return serve(exchange, res);
    }
  : (exchange, serve, res) => exchangeStorage.run(exchange, serve, exchange, res);

/**
 * The current request's {@link Exchange}, or `undefined` outside a request.
 *
 * @example
 * ```ts
 * const inRequest = currentExchange() !== undefined;
 * ```
 */
export function currentExchange(): Exchange | undefined {
  return exchangeStorage.getStore();
}

/**
 * Makes `value` the exchange's response. The importable `response` stands for whatever the
 * exchange holds, so a handler returning it (Pecan's `return response` download idiom) keeps the
 * response as it is: storing the stand-in itself would make it stand for itself, without end.
 *
 * @example
 * ```ts
 * adoptResponse(exchange, tapResult); // a tap that returned `response` changes nothing
 * ```
 */
export function adoptResponse(exchange: Exchange, value: Response): void {
  if (value === response) return;
  const replaced = exchange.response;
  // A stream the replaced response held will never be sent: its file is closed now.
  if (replaced !== value && replaced.app_iter !== undefined && replaced.app_iter !== value.app_iter) discardBody(replaced.app_iter);
  exchange.response = value;
}

/**
 * Runs `step` inside `exchange`'s own async context (when the app uses context locals), so that
 * the importable `request`/`response` stand for that exchange in everything `step` starts, and
 * not for the one the caller runs in. The kernel continues a request cut off by `handler_timeout`
 * this way: its handler keeps the old exchange (and its sealed response), the 503 gets a new one.
 *
 * @example
 * ```ts
 * return inExchange(contextLocals, fresh, () => this.finish(fresh, res));
 * ```
 */
export function inExchange<T>(contextLocals: boolean, exchange: Exchange, step: () => T): T {
  return contextLocals ? exchangeStorage.run(exchange, step) : step();
}

// Whether an app with `use_context_locals: false` is running in this process: the stand-ins then
// say why they have nothing to stand for.
let explicitApps = false;

/**
 * Records that an app runs with `use_context_locals: false` (the kernel calls it at `ready()`),
 * so that the importable `request`/`response` name that option when they are used.
 *
 * @example
 * ```ts
 * if (!config.use_context_locals) noteExplicitApp();
 * ```
 */
export function noteExplicitApp(): void {
  explicitApps = true;
}

/**
 * True once an app with `use_context_locals: false` has started in this process: code that finds
 * no current request can then say that the request must be passed, rather than that it ran
 * outside of one.
 *
 * @example
 * ```ts
 * if (!currentExchange()) throw coreError(explicitAppRunning() ? 'HICKORY_ERR_CONTEXT_LOCALS_OFF' : 'HICKORY_ERR_OUTSIDE_REQUEST', 'x');
 * ```
 */
export function explicitAppRunning(): boolean {
  return explicitApps;
}

function proxyOf<K extends 'request' | 'response'>(key: K, prototype: object): Exchange[K] {
  const current = (): Exchange[K] => {
    const exchange = exchangeStorage.getStore();
    if (!exchange) throw coreError(explicitAppRunning() ? 'HICKORY_ERR_CONTEXT_LOCALS_OFF' : 'HICKORY_ERR_OUTSIDE_REQUEST', key);
    return exchange[key];
  };
  return new Proxy(Object.create(prototype) as Exchange[K], {
    get(_t, prop) {
      const target = current();
      const value: unknown = Reflect.get(target, prop, target);
      // Methods run against the real object so that subclasses with #private fields work.
      return typeof value === 'function' && prop !== 'constructor' ? value.bind(target) : value;
    },
    set(_t, prop, value) {
      const target = current();
      return Reflect.set(target, prop, value, target);
    },
    has(_t, prop) {
      return Reflect.has(current(), prop);
    },
    deleteProperty(_t, prop) {
      return Reflect.deleteProperty(current(), prop);
    },
    ownKeys() {
      return Reflect.ownKeys(current());
    },
    getOwnPropertyDescriptor(_t, prop) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), prop);
      if (descriptor) descriptor.configurable = true;
      return descriptor;
    },
    getPrototypeOf() {
      return Reflect.getPrototypeOf(current());
    },
  });
}

/**
 * The current request, importable anywhere (it follows the request through `await`).
 * Used outside a request it throws `HICKORY_ERR_OUTSIDE_REQUEST`.
 *
 * @example
 * ```ts
 * import { request } from '@hickory/core';
 * @expose() whoami() { return request.headers['user-agent'] ?? 'unknown'; }
 * ```
 */
export const request: Request = proxyOf('request', Request.prototype);

/**
 * The current response, importable anywhere; set `status`, `headers`, `body`, `app_iter` on it.
 * Used outside a request it throws `HICKORY_ERR_OUTSIDE_REQUEST`.
 *
 * @example
 * ```ts
 * import { response } from '@hickory/core';
 * @expose() teapot() { response.status = 418; return 'short and stout'; }
 * ```
 */
export const response: Response = proxyOf('response', Response.prototype);
