// `npm run bench:side-by-side`: Hickory against fastify with both servers loaded at the same time.
// This machine's host speed drifts by ±30% over seconds to minutes, so `npm run bench`'s servers,
// which take turns, differ from round to round by more than the effect looked for (round ratios
// of 0.54–1.79 for the same pair). Here both servers of a pair are pinned to the same core and a
// wrk each loads them over the same window: the drift hits both, and each round's ratios A/B of
// CPU per request and of requests/s keep their own difference. `--control` adds an A/A pair that
// shows the method's own spread. `--help` lists the options.
//
//   node --conditions=source --import tsx benchmarks/side-by-side.ts [--pairs hickory-schema:fastify,hickory-app-schema:fastify] [--control] [--node current,/path/to/node] [--write]
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { checkPinning } from './http/cores.ts';
import { runSideBySide } from './http/side-by-side.ts';
import { wrkVersion } from './http/wrk.ts';
import { nodeLabel, resolveNodeLines, type NodeLine } from './node-lines.ts';
import { README, replaceBetweenMarkers } from './report.ts';
import { buildServers } from './servers/built.ts';
import { parseSideBySideOptions, SIDE_BY_SIDE_USAGE, type SideBySideOptions } from './side-by-side-options.ts';
import { sideBySideBlock, sideBySideMarkers } from './side-by-side-report.ts';

let options: SideBySideOptions;
let nodes: NodeLine[];
try {
  options = parseSideBySideOptions(process.argv.slice(2));
  // Before anything is measured: a missing tool, core or binary stops the run at once.
  if (wrkVersion() === undefined) throw new Error("wrk is needed to load the servers: apt-get install wrk (Debian's package)");
  checkPinning(options.serverCore, options.clientCores);
  nodes = resolveNodeLines(options.nodes);
} catch (error) {
  console.error(`${(error as Error).message}\n\n${SIDE_BY_SIDE_USAGE}`);
  process.exit(2);
}
const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);
const loadAverage = () => Math.round(loadavg()[0]! * 100) / 100;
log(`${new Date().toISOString()}, load average ${loadAverage()}; pairs ${options.pairs.map((p) => p.join(' vs ')).join(', ')}; routes ${options.routes.join(', ')}`);
log(`${options.rounds} round(s) × ${options.duration} s, both servers on core ${options.serverCore}, both wrk (${options.connections} connections each) on core(s) ${options.clientCores.join(',')}`);

log("building the packages' dist and the servers (tsc -b benchmarks)");
buildServers();
// From here on this process only starts servers and wrk, and waits: it keeps off the servers' core.
spawnSync('taskset', ['-a', '-p', '-c', options.clientCores.join(','), String(process.pid)], { stdio: 'ignore' });

const command = ['npm run bench:side-by-side', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
const date = new Date().toISOString().slice(0, 10);
const { write, nodes: _lines, ...suite } = options;
for (const node of nodes) {
  // Other work on the machine shows here (the block records it).
  const load = loadAverage();
  log(`servers on ${nodeLabel(node.version)} (${node.binary}), load average ${load}`);
  const results = await runSideBySide({ ...suite, node: node.binary, log });
  const block = sideBySideBlock({ date, version: node.version, command, loadAverage: load }, results);
  console.log(`\n${block}\n`);
  if (write) {
    await writeFile(README, replaceBetweenMarkers(await readFile(README, 'utf8'), block, sideBySideMarkers(node.version)));
    log(`wrote the ${nodeLabel(node.version)} table in ${README}`);
  }
}
log(`done in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
