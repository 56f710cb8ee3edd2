// A process's CPU time, read from /proc (Linux): the suite reports each server's CPU time per
// request, which moves less than throughput when other work shares the machine.
import { readFileSync } from 'node:fs';

/**
 * User + system CPU time of process `pid` in µs, or `undefined` where /proc cannot tell.
 *
 * @example
 * ```ts
 * const before = processCpuMicros(server.pid);
 * ```
 */
export function processCpuMicros(pid: number): number | undefined {
  try {
    // Fields after the command name: state is 3rd, utime 14th and stime 15th (in clock ticks, 100 per second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6;
  } catch {
    return undefined;
  }
}
