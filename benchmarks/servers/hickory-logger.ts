// The Hickory bench app with `logger: true` (pino) writing its line per request to /dev/null.
import type { BenchServer } from './server.ts';

/** Starts the Hickory app with request logging on. @example const { port } = await start(); */
export async function start(): Promise<BenchServer> {
  (globalThis as { hickoryBenchLogger?: boolean }).hickoryBenchLogger = true;
  return (await import('./hickory.ts')).start();
}
