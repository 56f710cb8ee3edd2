// One autocannon run against one route of one server, reduced to the numbers the suite keeps.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import type { LoadSample } from './sample.ts';

/** Settings of a load run. */
export interface LoadSettings {
  connections: number;
  pipelining: number;
  /** Seconds. */
  duration: number;
}

/**
 * Loads `url` for `settings.duration` seconds.
 *
 * @example
 * ```ts
 * const sample = await loadOnce('http://127.0.0.1:3000/hello', { connections: 100, pipelining: 10, duration: 5 });
 * ```
 */
export async function loadOnce(url: string, settings: LoadSettings): Promise<LoadSample> {
  const result = await autocannon({
    url,
    connections: settings.connections,
    pipelining: settings.pipelining,
    duration: settings.duration,
    timeout: 10,
  });
  return {
    rps: result.requests.total / Math.max(result.duration, 0.001),
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
  };
}
