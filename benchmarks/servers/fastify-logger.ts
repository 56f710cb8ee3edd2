// The fastify bench app with `logger: true` writing to /dev/null: fastify's defaults, so its
// "incoming request" and "request completed" lines both.
import { discardedLog } from './discarded-log.ts';
import { startFastify } from './fastify.ts';
import type { BenchServer } from './server.ts';

/** Starts the fastify app with request logging on. @example const { port } = await start(); */
export function start(): Promise<BenchServer> {
  return startFastify({ stream: discardedLog() });
}
