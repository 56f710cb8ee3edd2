import { definePlugin, HTTPError, type Kernel, type Lookup, type Request } from '@hickory/core';
import { checkOptionNames, tapDirect } from '@hickory/core/kit';
import { handlerCallOf } from '@hickory/dispatch/kit';
import { clientKey } from './client-key.ts';
import { Counter } from './counter.ts';
import { rateLimitFields, retryAfter, type Verdict } from './fields.ts';
import { BoundedMemoryLimiter } from './memory-store.ts';
import { checkOptions, type Policy, type RateLimitOptions, type Settings } from './options.ts';
import { createTable, postgresLimiter, sweepExpired } from './postgres-store.ts';
import { handlerLimit, type HandlerLimit } from './rate-limit-decorator.ts';

// What the limits said about one request, on the request itself (as dispatch's routing state).
const LIMITS = Symbol('hickory.rate-limit');

interface LimitState {
  // The app-wide limit was counted (an internal redirect or an error document is not counted again).
  appCounted: boolean;
  // Handlers already counted for this request.
  handlers: Function[];
  readonly verdicts: Verdict[];
}

interface WithLimits {
  [LIMITS]?: LimitState;
}

/**
 * Rate limits on rate-limiter-flexible: an app-wide limit (`points` requests per client in
 * `duration` seconds, counted before routing, static files included) and the per-handler limits
 * of `@rate_limit` (counted once routing found the handler, before its body is read). A request
 * past a limit is answered 429 with `Retry-After`, through the normal error path (JSON or HTML);
 * every counted response carries the `RateLimit-Policy` and `RateLimit` fields of
 * draft-ietf-httpapi-ratelimit-headers-10. Clients are told apart by `key` (default: their
 * address, `trust_proxy` respected). Counters live in memory (bounded by `maxKeys`) or, with a
 * node-postgres `Pool` as `store`, in one table shared by every instance.
 *
 * @example
 * ```ts
 * createKernel({ root, trust_proxy: ['10.0.0.0/8'] }).use(dispatchPlugin).use(rateLimitPlugin, { points: 300, duration: 60, store: pool });
 * ```
 */
export const rateLimitPlugin = definePlugin<RateLimitOptions | undefined>({
  name: 'rate-limit',
  apply(kernel, options) {
    checkOptionNames('rate-limit', options, ['points', 'duration', 'key', 'store', 'maxKeys', 'storeTimeout', 'tableName']);
    const settings = checkOptions(options);
    const keyOf = settings.key ?? clientKey;
    const logStoreError = storeErrorLog(kernel);
    let makeCounter: ((policy: Policy, prefix: string) => Counter) | undefined;
    let appCounter: Counter | undefined;
    let stopSweep: (() => void) | undefined;
    // Per kernel: two apps in one process never share counters.
    const handlerCounters = new WeakMap<Function, Counter>();

    kernel.hooks.ready.tapPromise('rate-limit', async () => {
      const { store } = settings;
      if (store === 'memory') {
        makeCounter = (policy, prefix) => new Counter(policy, memoryLimiter(policy, prefix, settings), undefined, settings.storeTimeout, logStoreError);
      } else {
        await createTable(store, settings.tableName);
        stopSweep = sweepExpired(store, settings.tableName, 60_000);
        makeCounter = (policy, prefix) =>
          new Counter(policy, postgresLimiter(store, settings.tableName, policy, prefix), memoryLimiter(policy, prefix, settings), settings.storeTimeout, logStoreError);
      }
      if (settings.app !== undefined) appCounter = makeCounter(settings.app, 'app');
    });
    kernel.hooks.close.tap('rate-limit', () => stopSweep?.());

    // Before the other plugins' taps (static files, rewrites, hooks), after health probes (-100).
    tapDirect(
      kernel.hooks.beforeRoute,
      'rate-limit',
      (request) => {
        const state = limitState(request);
        if (appCounter === undefined || state.appCounted) return undefined;
        state.appCounted = true;
        return appCounter.consume(keyOf(request)).then((verdict) => judge(state, verdict));
      },
      { active: () => settings.app !== undefined, stage: -10 },
    );

    tapDirect(kernel.hooks.afterLookup, 'rate-limit', (lookup, request) => {
      const found = limitedHandler(lookup);
      if (found === undefined || makeCounter === undefined) return undefined;
      const [handler, limit, controller] = found;
      const state = limitState(request);
      if (state.handlers.includes(handler)) return undefined;
      state.handlers.push(handler);
      let counter = handlerCounters.get(handler);
      if (counter === undefined) {
        // The store's key prefix names the class too: two classes' `login` keep their own counts.
        const owner = (controller?.constructor as { name?: string } | undefined)?.name || 'Controller';
        counter = makeCounter({ name: limit.name, points: limit.points, duration: limit.duration }, `h:${owner}.${limit.name}`.slice(0, 120));
        handlerCounters.set(handler, counter);
      }
      return counter.consume((limit.key ?? keyOf)(request)).then((verdict) => judge(state, verdict));
    });

    // Every response passes here (errors, 404, static files): the fields go on all of them.
    tapDirect(kernel.hooks.beforeSend, 'rate-limit', (request, response) => {
      const state = (request as WithLimits)[LIMITS];
      if (state === undefined || state.verdicts.length === 0) return;
      const fields = rateLimitFields(state.verdicts);
      response.headers['RateLimit-Policy'] = fields.policy;
      response.headers['RateLimit'] = fields.limit;
    });
  },
});

function limitState(request: Request): LimitState {
  return ((request as WithLimits)[LIMITS] ??= { appCounted: false, handlers: [], verdicts: [] });
}

// Records the verdict; past the limit, the request's 429.
function judge(state: LimitState, verdict: Verdict): undefined {
  state.verdicts.push(verdict);
  if (verdict.allowed) return undefined;
  const { points, duration } = verdict.policy;
  const wait = retryAfter(verdict.resetMs);
  throw new HTTPError(429, `Too many requests: at most ${points} every ${duration} s; retry in ${wait} s.`, { 'Retry-After': wait });
}

// The handler a dispatch lookup calls (a `when()` handler, else the exposed method) and its limit.
function limitedHandler(lookup: Lookup): [Function, HandlerLimit, object | undefined] | undefined {
  const call = handlerCallOf(lookup);
  if (call !== undefined) {
    const limit = handlerLimit(call.handler);
    return limit === undefined ? undefined : [call.handler, limit, call.controller];
  }
  const target = lookup.target;
  if (typeof target !== 'function') return undefined;
  const limit = handlerLimit(target);
  return limit === undefined ? undefined : [target, limit, undefined];
}

function memoryLimiter(policy: Policy, prefix: string, settings: Settings): BoundedMemoryLimiter {
  return new BoundedMemoryLimiter({ points: policy.points, duration: policy.duration, keyPrefix: prefix }, settings.maxKeys);
}

// One line per minute at most while the store fails: an outage must not flood the log.
function storeErrorLog(kernel: Kernel): (error: unknown) => void {
  let last = -Infinity;
  let quiet = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < 60_000) {
      quiet++;
      return;
    }
    const more = quiet > 0 ? ` (${quiet} more failures since the last report)` : '';
    kernel.logger.error(`rate-limit: the PostgreSQL store failed${more}; counting in this process's memory until it answers again`, error);
    last = now;
    quiet = 0;
  };
}
