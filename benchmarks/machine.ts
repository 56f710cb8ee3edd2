// The machine a run happened on, recorded with its results.
import { arch, cpus, loadavg, release, totalmem, type } from 'node:os';

/** Where the numbers come from. */
export interface Machine {
  cores: number;
  model: string;
  node: string;
  os: string;
  memoryGiB: number;
  /** 1-minute load average when the run started: other work on a shared machine shows here. */
  loadAverage: number;
  note: string;
}

/**
 * Describes this machine, with a note on where the load generator ran.
 *
 * @example
 * ```ts
 * console.log(describeMachine().cores);
 * ```
 */
export function describeMachine(note = 'client and server share these cores: one process each, on the same machine, over 127.0.0.1'): Machine {
  const list = cpus();
  return {
    cores: list.length,
    model: list[0]?.model.trim() ?? 'unknown',
    node: process.version,
    os: `${type()} ${release()} ${arch()}`,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
    note,
  };
}
