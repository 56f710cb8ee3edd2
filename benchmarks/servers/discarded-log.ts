// Where the logging variants write: /dev/null through pino's own destination (SonicBoom), so
// that each line costs what it costs in production (serialised, written) minus the disk.
import pino from 'pino';

/** A pino destination on /dev/null, written synchronously as pino's default stdout is. @example Fastify({ logger: { stream: discardedLog() } }); */
export function discardedLog(): pino.DestinationStream {
  return pino.destination({ dest: '/dev/null', sync: true });
}
