// One round of the side-by-side method: two servers pinned to the same core, each loaded by its own
// wrk over the same wall-clock window. The host's speed drifts by ±30% over seconds to minutes on
// this machine, so two servers measured one after the other differ by more than what separates
// them; measured at the same time, the drift hits both alike and their ratio keeps only their own
// difference. The scheduler shares the core between them: what is compared is each one's CPU time
// per request (and its requests/s) over the same window.
import { setTimeout as sleep } from 'node:timers/promises';
import { SETTLE_MS } from './load.ts';
import { coreShares, coreTimes, processCpuMicros } from './process-cpu.ts';
import type { LoadSample } from './sample.ts';
import { runWrk, type WrkSettings } from './wrk.ts';

/**
 * One server of a pair, as a round loads it.
 *
 * @example
 * ```ts
 * const side: Side = { pid: server.pid, url: `http://127.0.0.1:${server.port}/hello` };
 * ```
 */
export interface Side {
  /** The server's process (its CPU time is read from /proc). */
  pid: number;
  /** What its wrk requests. */
  url: string;
}

/**
 * What one side measured in a round: wrk's sample, the server's CPU per request and its share of the core.
 *
 * @example
 * ```ts
 * const [a, b]: SideSample[] = round.sides;
 * ```
 */
export interface SideSample extends LoadSample {
  /** The server's CPU time over the load as a share of the server core's time (0…1; the two sides' add up to ~1 when neither was starved). */
  coreShare?: number;
}

/**
 * One round of a pair: both sides loaded at the same time.
 *
 * @example
 * ```ts
 * const round: PairedRound = await measurePair(sides, load, 0, spawnFirst(i));
 * ```
 */
export interface PairedRound {
  /** Side A's and side B's numbers. */
  sides: [SideSample, SideSample];
  /** Which side's wrk was spawned first (0: A). */
  first: 0 | 1;
  /** The server core over the load: the share that went to work other than the two servers, and the share it sat idle. */
  serverCore?: { other: number; idle: number };
}

/**
 * Loads both sides at the same time, one wrk each with the same settings (`first`'s wrk spawned
 * first), and reads each server's CPU time from /proc before the load and after it (once it has
 * closed its connections), and the server core's times over the load.
 *
 * @example
 * ```ts
 * const round = await measurePair([{ pid: a.pid, url: urlA }, { pid: b.pid, url: urlB }],
 *   { connections: 256, threads: 1, duration: 5, cores: [1] }, 0, 0);
 * round.sides[0].cpuPerRequest / round.sides[1].cpuPerRequest!; // A/B
 * ```
 */
export async function measurePair(sides: readonly [Side, Side], load: WrkSettings, serverCore: number, first: 0 | 1): Promise<PairedRound> {
  const pids = sides.map((side) => side.pid);
  const cpuBefore = pids.map(processCpuMicros);
  const coreBefore = coreTimes(serverCore);
  const runs: Promise<LoadSample>[] = [];
  // runWrk spawns at once: the side called first starts first (by a few ms), hence the alternation.
  for (const i of first === 0 ? [0, 1] : [1, 0]) runs[i] = runWrk(sides[i]!.url, load);
  const samples = await Promise.all(runs);
  // The core's shares over the load itself (the pause after it would read as idle time)…
  const cpuEnd = pids.map(processCpuMicros);
  const coreEnd = coreTimes(serverCore);
  await sleep(SETTLE_MS);
  // …and each server's CPU time once it has also closed its connections.
  const cpuAfter = pids.map(processCpuMicros);
  const coreTotal = coreBefore && coreEnd ? coreEnd.total - coreBefore.total : 0;
  // Each server's CPU time over the load (for the core's shares) and up to the settle (per request).
  const overLoad = pids.map((_, i) => (cpuBefore[i] === undefined || cpuEnd[i] === undefined ? undefined : cpuEnd[i]! - cpuBefore[i]!));
  const result = samples.map((sample, i): SideSample => {
    const side: SideSample = { ...sample };
    if (cpuBefore[i] !== undefined && cpuAfter[i] !== undefined && sample.requests > 0) side.cpuPerRequest = (cpuAfter[i]! - cpuBefore[i]!) / sample.requests;
    if (overLoad[i] !== undefined && coreTotal > 0) side.coreShare = overLoad[i]! / coreTotal;
    return side;
  });
  const round: PairedRound = { sides: [result[0]!, result[1]!], first };
  const bothServers = overLoad.every((micros) => micros !== undefined) ? overLoad.reduce((sum, micros) => sum! + micros!, 0)! : undefined;
  const shares = coreBefore && coreEnd && bothServers !== undefined ? coreShares(coreBefore, coreEnd, bothServers) : undefined;
  if (shares) round.serverCore = shares;
  return round;
}
