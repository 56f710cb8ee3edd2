import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PairedRound, SideSample } from './paired-round.ts';
import { isStarved, roundRatios, spawnFirst, summarizePair } from './paired-stats.ts';

const side = (rps: number, cpuPerRequest?: number, failures = 0): SideSample => ({
  rps,
  requests: rps * 5,
  p50: 1,
  p99: 2,
  failures,
  loadAverage: 1,
  ...(cpuPerRequest === undefined ? {} : { cpuPerRequest }),
});
const round = (a: SideSample, b: SideSample, idle?: number, first: 0 | 1 = 0): PairedRound => ({
  sides: [a, b],
  first,
  ...(idle === undefined ? {} : { serverCore: { other: 0.01, idle } }),
});

test("each round's wrk spawned first alternates between A and B, starting with A", () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(spawnFirst), [0, 1, 0, 1, 0]);
});

test('a round is flagged as starved when the server core sat idle above 5%, not at 5% or when the core could not be read', () => {
  assert.equal(isStarved(round(side(100, 10), side(100, 10), 0.06)), true);
  assert.equal(isStarved(round(side(100, 10), side(100, 10), 0.05)), false);
  assert.equal(isStarved(round(side(100, 10), side(100, 10), 0)), false);
  assert.equal(isStarved(round(side(100, 10), side(100, 10))), false);
});

test("a round's ratios are A/B of CPU per request and of requests/s, absent where a side has no number", () => {
  assert.deepEqual(roundRatios(round(side(30_000, 18), side(25_000, 20))), { cpu: 0.9, rps: 1.2 });
  assert.deepEqual(roundRatios(round(side(30_000), side(25_000, 20))), { rps: 1.2 });
  assert.deepEqual(roundRatios(round(side(0), side(25_000, 20))), {});
});

test("a pair's summary: median and range of each ratio over the rounds, each side's medians, starved rounds and failures", () => {
  const rounds = [
    round(side(20_000, 25), side(20_000, 20), 0, 0), // cpu 1.25, rps 1
    round(side(22_000, 18), side(20_000, 20), 0.2, 1), // cpu 0.9, rps 1.1 (starved)
    round(side(18_000, 20), side(20_000, 20), 0.01, 0), // cpu 1, rps 0.9
    round(side(24_000, 19), side(20_000, 20, 3), 0.02, 1), // cpu 0.95, rps 1.2, 3 failures
    round(side(20_000), side(20_000, 20), undefined, 0), // no cpu ratio, rps 1
  ];
  const summary = summarizePair(rounds);
  assert.deepEqual(summary.cpu, { median: (0.95 + 1) / 2, min: 0.9, max: 1.25 });
  assert.deepEqual(summary.rps, { median: 1, min: 0.9, max: 1.2 });
  assert.deepEqual(summary.cpuPerRequest, [19.5, 20]);
  assert.deepEqual(summary.requestsPerSecond, [20_000, 20_000]);
  assert.equal(summary.rounds, 5);
  assert.equal(summary.starved, 1);
  assert.equal(summary.worstIdle, 0.2);
  assert.deepEqual(summary.otherWork, { median: 0.01, min: 0.01, max: 0.01 });
  assert.equal(summary.failures, 3);
});

test('a pair without rounds sums up to no ratios', () => {
  assert.deepEqual(summarizePair([]), { cpuPerRequest: [undefined, undefined], requestsPerSecond: [undefined, undefined], rounds: 0, starved: 0, failures: 0 });
});
