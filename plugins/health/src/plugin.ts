import { definePlugin, HTTPError, Response, type Kernel } from '@hickory/core';
import { checkOptionNames, tapDirect } from '@hickory/core/kit';
import { LoopMonitor } from './event-loop.ts';
import { checkOptions, type HealthOptions, type HealthSettings } from './options.ts';
import { runChecks, type Readiness } from './readiness.ts';

/**
 * Health endpoints for load balancers and orchestrators, answered before routing and before
 * every other plugin's `beforeRoute` tap (stage -100): no hook, no transaction, no session, no
 * rate limit, no template runs for them. `live` (`/healthz`) answers 200 `{"status":"ok"}` at
 * once, whatever the load (restarting a busy process would not help it). `ready` (`/readyz`)
 * answers 503 while the kernel is closing, while the event loop is `maxEventLoopDelay` ms late or
 * more, or when a check fails (throws, rejects, returns `false`, or takes longer than
 * `timeout`), with a JSON body naming the failing ones; else 200. Concurrent readiness requests
 * share one run of the checks.
 *
 * @example
 * ```ts
 * createKernel({ root }).use(dispatchPlugin).use(healthPlugin, { checks: { db: () => pool.query('SELECT 1') } });
 * ```
 */
export const healthPlugin = definePlugin<HealthOptions | undefined>({
  name: 'health',
  apply(kernel, options) {
    checkOptionNames('health', options, ['live', 'ready', 'checks', 'timeout', 'maxEventLoopDelay']);
    const settings = checkOptions(options);
    const loop = settings.maxEventLoopDelay === false ? undefined : new LoopMonitor();
    const readiness = sharedRun(kernel, settings);
    kernel.hooks.ready.tap('health', () => loop?.start());
    kernel.hooks.close.tap('health', () => loop?.stop());

    tapDirect(
      kernel.hooks.beforeRoute,
      'health',
      (request) => {
        const { path } = request;
        if (path !== settings.live && path !== settings.ready) return undefined;
        if (request.method !== 'GET' && request.method !== 'HEAD') throw new HTTPError(405, `${path} answers GET and HEAD only.`, { Allow: 'GET, HEAD' });
        if (path === settings.live) return answer(200, LIVE);
        // Requests are only served by a ready kernel: not ready any more means closing.
        if (!kernel.isReady) return answer(503, CLOSING);
        const max = settings.maxEventLoopDelay;
        if (loop !== undefined && max !== false) {
          const delay = loop.delay();
          if (delay >= max) return answer(503, { status: 'error', failing: ['eventLoopDelay'], eventLoopDelay: { ms: Math.round(delay), max } });
        }
        return readiness().then((result) => {
          if (!kernel.isReady) return answer(503, CLOSING);
          const ok = result.failing.length === 0;
          return answer(ok ? 200 : 503, ok ? { status: 'ok', checks: result.checks } : { status: 'error', failing: result.failing, checks: result.checks });
        });
      },
      { stage: -100 },
    );
  },
});

const LIVE = { status: 'ok' };
const CLOSING = { status: 'error', failing: ['closing'] };

function answer(status: number, body: object): Response {
  // no-store: a cache between the probe and the app must never answer for it.
  return new Response({ body: JSON.stringify(body), status, content_type: 'application/json', headers: { 'Cache-Control': 'no-store' } });
}

// One run of the checks at a time, shared by the readiness requests that arrive meanwhile (a burst
// of probes costs the database one query each check); a check that starts or stops failing is logged once.
function sharedRun(kernel: Kernel, settings: HealthSettings): () => Promise<Readiness> {
  let running: Promise<Readiness> | undefined;
  const failing = new Set<string>();
  const run = async (): Promise<Readiness> => {
    try {
      const result = await runChecks(settings.checks, settings.timeout);
      for (const name of result.failing) {
        if (failing.has(name)) continue;
        failing.add(name);
        kernel.logger.warn(`health: readiness check "${name}" fails (${result.checks[name]!.error ?? 'failed'})`, result.errors.get(name));
      }
      for (const name of failing) {
        if (result.failing.includes(name)) continue;
        failing.delete(name);
        kernel.logger.info(`health: readiness check "${name}" passes again`);
      }
      return result;
    } finally {
      running = undefined;
    }
  };
  return () => (running ??= run());
}

