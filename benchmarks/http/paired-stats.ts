// What the side-by-side rounds of a pair add up to: per round the ratios A/B of CPU per request
// and of requests/s (each round's two sides shared one window, so a round's ratio is free of the
// host's drift), then their median and range over the rounds; and which rounds to distrust.
import { spread } from '../stats.ts';
import type { PairedRound } from './paired-round.ts';

/**
 * The server core's idle share above which a round is flagged: the two wrk did not keep the two
 * servers busy, so requests/s measured the load generators (a few percent is wrk's start and end).
 *
 * @example
 * ```ts
 * if (round.serverCore!.idle > STARVED_IDLE) console.log('clients were the bottleneck');
 * ```
 */
export const STARVED_IDLE = 0.05;

/**
 * Which side's wrk is spawned first in round `round` (from 0): A, then B, in turn, so that a few
 * milliseconds' head start favours neither.
 *
 * @example
 * ```ts
 * [0, 1, 2].map(spawnFirst); // [0, 1, 0]
 * ```
 */
export function spawnFirst(round: number): 0 | 1 {
  return round % 2 === 0 ? 0 : 1;
}

/**
 * Whether the servers were starved by their load generators in this round: the server core sat
 * idle for more than `STARVED_IDLE` of the window. A round whose core could not be read is not flagged.
 *
 * @example
 * ```ts
 * isStarved({ sides, first: 0, serverCore: { other: 0.01, idle: 0.12 } }); // true
 * ```
 */
export function isStarved(round: PairedRound): boolean {
  return round.serverCore !== undefined && round.serverCore.idle > STARVED_IDLE;
}

/**
 * A round's ratios A/B: of CPU time per request (below 1: A needs less) and of requests/s (above
 * 1: A served more). A ratio is absent when a side has no number for it (no requests, /proc unread).
 *
 * @example
 * ```ts
 * roundRatios(round); // { cpu: 0.95, rps: 1.04 }
 * ```
 */
export function roundRatios(round: PairedRound): { cpu?: number; rps?: number } {
  const [a, b] = round.sides;
  const ratios: { cpu?: number; rps?: number } = {};
  if (a.cpuPerRequest !== undefined && b.cpuPerRequest !== undefined && b.cpuPerRequest > 0) ratios.cpu = a.cpuPerRequest / b.cpuPerRequest;
  if (a.rps > 0 && b.rps > 0) ratios.rps = a.rps / b.rps;
  return ratios;
}

/**
 * A pair's rounds on one route, summed up.
 *
 * @example
 * ```ts
 * const { cpu, rps, starved }: PairSummary = summarizePair(rounds);
 * ```
 */
export interface PairSummary {
  /** Median and range over the rounds of the CPU-per-request ratio A/B. */
  cpu?: { median: number; min: number; max: number };
  /** Median and range over the rounds of the requests/s ratio A/B. */
  rps?: { median: number; min: number; max: number };
  /** Each side's median CPU time per request (µs). */
  cpuPerRequest: [number | undefined, number | undefined];
  /** Each side's median requests/s. */
  requestsPerSecond: [number | undefined, number | undefined];
  rounds: number;
  /** Rounds whose server core sat idle above `STARVED_IDLE` (kept in the medians, and shown). */
  starved: number;
  /** The server core's highest idle share over the rounds. */
  worstIdle?: number;
  /** The share of the server core that went to other work than the two servers (other processes, the host): median and range over the rounds. */
  otherWork?: { median: number; min: number; max: number };
  /** Errors, timeouts and non-2xx answers over all rounds, both sides. */
  failures: number;
}

const finite = (values: ReadonlyArray<number | undefined>) => values.filter((v): v is number => v !== undefined && Number.isFinite(v));
const side = (rounds: readonly PairedRound[], i: 0 | 1, pick: (s: PairedRound['sides'][0]) => number | undefined) => spread(finite(rounds.map((r) => pick(r.sides[i]))))?.median;

/**
 * Sums up a pair's rounds: the median and range of each ratio, each side's medians, the rounds
 * flagged as starved and the failures.
 *
 * @example
 * ```ts
 * summarizePair(rounds).cpu; // { median: 0.97, min: 0.93, max: 1.01 }
 * ```
 */
export function summarizePair(rounds: readonly PairedRound[]): PairSummary {
  const ratios = rounds.map(roundRatios);
  const summary: PairSummary = {
    cpuPerRequest: [side(rounds, 0, (s) => s.cpuPerRequest), side(rounds, 1, (s) => s.cpuPerRequest)],
    requestsPerSecond: [side(rounds, 0, (s) => s.rps), side(rounds, 1, (s) => s.rps)],
    rounds: rounds.length,
    starved: rounds.filter(isStarved).length,
    failures: rounds.reduce((sum, r) => sum + r.sides[0].failures + r.sides[1].failures, 0),
  };
  const cpu = spread(finite(ratios.map((r) => r.cpu)));
  const rps = spread(finite(ratios.map((r) => r.rps)));
  const idle = finite(rounds.map((r) => r.serverCore?.idle));
  const other = spread(finite(rounds.map((r) => r.serverCore?.other)));
  if (cpu) summary.cpu = cpu;
  if (other) summary.otherWork = other;
  if (rps) summary.rps = rps;
  if (idle.length) summary.worstIdle = Math.max(...idle);
  return summary;
}
