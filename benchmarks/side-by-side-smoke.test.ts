// The side-by-side flow end to end, kept to seconds: two small servers (node:http, and node:http
// with an AsyncLocalStorage preloaded) from their sources, both pinned to core 0, one route, a 1 s
// warm-up and one round of 1 s with a wrk each on the last core. It checks the shape of what comes
// back, never a speed. Needs wrk, taskset and two cores (skipped otherwise, with the reason).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { roundRatios, summarizePair } from './http/paired-stats.ts';
import { runSideBySide } from './http/side-by-side.ts';
import { wrkVersion } from './http/wrk.ts';
import { sideBySideTable } from './side-by-side-report.ts';

function missing(): string | false {
  if (availableParallelism() < 2) return 'needs two cores (one for the servers, one for wrk)';
  if (wrkVersion() === undefined) return 'wrk is not installed (apt-get install wrk)';
  if (spawnSync('taskset', ['-c', '0', 'true']).status !== 0) return 'taskset cannot pin to core 0 (util-linux)';
  return false;
}

test('one round side by side: both servers loaded at once, both answered, a finite ratio, no failures', { skip: missing() }, async () => {
  const lines: string[] = [];
  const results = await runSideBySide({
    pairs: [['node', 'node-als']],
    routes: ['hello'],
    rounds: 1,
    duration: 1,
    warmup: 1,
    connections: 8,
    threads: 1,
    serverCore: 0,
    clientCores: [availableParallelism() - 1],
    node: process.execPath,
    built: false,
    log: (line) => lines.push(line),
  });
  assert.equal(results.length, 1);
  const [result] = results;
  assert.deepEqual([result!.pair, result!.route, result!.skipped, result!.rounds.length], [['node', 'node-als'], 'hello', undefined, 1]);
  const [round] = result!.rounds;
  assert.equal(round!.first, 0);
  for (const side of round!.sides) {
    assert.ok(side.requests > 0, `a side got ${side.requests} requests`);
    assert.equal(side.failures, 0);
    assert.ok(side.cpuPerRequest !== undefined && side.cpuPerRequest > 0 && Number.isFinite(side.cpuPerRequest), `CPU per request ${side.cpuPerRequest}`);
    assert.ok(side.coreShare !== undefined && side.coreShare >= 0 && side.coreShare <= 1, `core share ${side.coreShare}`);
  }
  const { cpu, rps } = roundRatios(round!);
  assert.ok(Number.isFinite(cpu) && cpu! > 0, `CPU ratio ${cpu}`);
  assert.ok(Number.isFinite(rps) && rps! > 0, `requests/s ratio ${rps}`);
  assert.ok(round!.serverCore !== undefined && round!.serverCore.idle >= 0 && round!.serverCore.idle <= 1);
  const summary = summarizePair(result!.rounds);
  assert.deepEqual([summary.rounds, summary.failures, summary.cpu?.median], [1, 0, cpu]);
  // The log has the warm-up and the round's line with both sides; the table a row for the pair.
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^round 1\/1 hello {2}node [\d,]+ req\/s [\d.]+ µs\/req share \d+% \| node-als [\d,]+ req\/s .* \| A\/B cpu [\d.]+ rps [\d.]+ \| core other \d+% idle \d+\.\d% \(node's wrk first\)/);
  assert.match(sideBySideTable(results).split('\n')[2]!, /^\| GET \/hello \(JSON\) \| node \/ node-als \| \*\*[\d.]+×\*\*<br><sub>[\d.]+–[\d.]+<\/sub> \| /);
});
