// `npm run bench`: Hickory against its peers over HTTP, measured the quiet way, on each Node line
// given (`--node`): each server built from the packages' dist and pinned to one core, wrk pinned
// to the others, keep-alive without pipelining, interleaved rounds; requests/s and the server's
// CPU time per request. Also its dispatch cost against path depth in this process. Writes the
// results, the chart and the README tables. `--help` lists the options.
//
//   node --conditions=source --import tsx benchmarks/run.ts [--quick] [--node current,26.10.0] [--routes hello,depth8] [--frameworks hickory,fastify]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { runDepth, type DepthResult } from './depth.ts';
import { checkPinning } from './http/cores.ts';
import { runHttp } from './http/load.ts';
import { wrkVersion } from './http/wrk.ts';
import { describeMachine } from './machine.ts';
import { nodeLabel, resolveNodeLines, type NodeLine } from './node-lines.ts';
import { parseOptions, USAGE, type BenchOptions } from './options.ts';
import { writeReport } from './report.ts';
import type { LineResult, Results } from './results.ts';
import { buildServers } from './servers/built.ts';
import { markdownTables } from './tables.ts';
import { depthTargets, httpTargets } from './targets.ts';

let options: BenchOptions;
let nodes: NodeLine[];
let wrk: string | undefined;
try {
  options = parseOptions(process.argv.slice(2));
  // Before anything is measured: a missing tool, core or binary stops the run at once.
  wrk = wrkVersion();
  if (wrk === undefined) throw new Error("wrk is needed to load the servers: apt-get install wrk (Debian's package)");
  checkPinning(options.serverCore, options.clientCores);
  nodes = resolveNodeLines(options.nodes);
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const started = performance.now();
const machine = describeMachine(`each server pinned to core ${options.serverCore}, wrk to core(s) ${options.clientCores.join(',')}; over 127.0.0.1`);
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);
log(`${machine.cores} × ${machine.model}, ${machine.os}, load average ${machine.loadAverage}; servers on ${nodes.map((n) => nodeLabel(n.version)).join(', ')}`);
log(`servers ${options.frameworks.join(', ')}; routes ${options.routes.join(', ')}; ${options.rounds} round(s) × ${options.duration} s per line; wrk ${wrk}`);

log("building the packages' dist and the servers (tsc -b benchmarks)");
buildServers();

// Depth first, while no server process competes for the cores.
let depth: DepthResult | undefined;
if (options.depth) {
  log(`dispatch depth (mitata, in process, ${nodeLabel(process.version)})`);
  depth = await runDepth({ minCpuTimeMs: options.depthCpuMs, log });
}
// From here on this process only starts servers and wrk, and waits: it keeps off the server's core.
spawnSync('taskset', ['-a', '-p', '-c', options.clientCores.join(','), String(process.pid)], { stdio: 'ignore' });

const lines: LineResult[] = [];
for (const node of nodes) {
  log(`HTTP suite, servers on ${nodeLabel(node.version)} (${node.binary})`);
  const http = await runHttp({ ...options, node: node.binary, log });
  lines.push({ node: node.version, binary: node.binary, http, targets: httpTargets(http, node.version) });
}

const { write, ...settings } = options;
const results: Results = {
  date: new Date().toISOString().slice(0, 10),
  command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  settings,
  machine,
  loadGenerator: wrk,
  loadAverageAtEnd: Math.round(loadavg()[0]! * 100) / 100,
  lines,
  depth,
  targets: depthTargets(depth),
};
console.log(`\n${markdownTables(results)}\n`);
if (write) {
  for (const path of await writeReport(results)) log(`wrote ${path}`);
} else {
  log('nothing written (--quick or --dry-run; pass --write to keep these numbers)');
}
log(`done in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
