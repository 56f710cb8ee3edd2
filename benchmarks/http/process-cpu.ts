// CPU time read from /proc (Linux): a process's own (each server's CPU time per request moves less
// than throughput when other work shares the machine), and a core's (what else ran on the core
// the server is pinned to, and whether it ever sat idle).
import { readFileSync } from 'node:fs';

// /proc counts in clock ticks of 1/100 s (USER_HZ, fixed at 100 for user space on Linux x86 and arm).
const TICK_MICROS = 10_000;

/**
 * User + system CPU time of process `pid` in µs, or `undefined` where /proc cannot tell. The
 * process's line sums all its threads (the garbage collector's helpers too).
 *
 * @example
 * ```ts
 * const before = processCpuMicros(server.pid);
 * ```
 */
export function processCpuMicros(pid: number): number | undefined {
  try {
    // Fields after the command name: state is 3rd, utime 14th and stime 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
  } catch {
    return undefined;
  }
}

/** Where one core's time went since boot, in µs. */
export interface CoreTimes {
  /** Running processes (user, nice, system) or taken by the hypervisor (steal). */
  busy: number;
  /** Idle or waiting for I/O. */
  idle: number;
  /** Everything, interrupts included. */
  total: number;
}

/**
 * The times of core `core` from /proc/stat, or `undefined` where /proc cannot tell.
 *
 * @example
 * ```ts
 * const before = coreTimes(0);
 * ```
 */
export function coreTimes(core: number, stat = readStat()): CoreTimes | undefined {
  const line = stat?.split('\n').find((l) => l.startsWith(`cpu${core} `));
  if (!line) return undefined;
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map((n) => Number(n) * TICK_MICROS) as number[];
  return { busy: user! + nice! + system! + steal!, idle: idle! + iowait!, total: user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal! };
}

function readStat(): string | undefined {
  try {
    return readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Over an interval, the share of a core's time that went to other work than the server's
 * (`other`) and that it sat idle (`idle`), from the core's times and the server's CPU time at
 * both ends. Interrupt time is left out of `other`: much of it is the server's own network traffic.
 *
 * @example
 * ```ts
 * coreShares(before, after, serverMicrosAfter - serverMicrosBefore); // { other: 0.02, idle: 0 }
 * ```
 */
export function coreShares(before: CoreTimes, after: CoreTimes, serverMicros: number): { other: number; idle: number } | undefined {
  const total = after.total - before.total;
  if (total <= 0) return undefined;
  return {
    other: Math.max(0, after.busy - before.busy - serverMicros) / total,
    idle: (after.idle - before.idle) / total,
  };
}
