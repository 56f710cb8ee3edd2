// `npm run bench`: Hickory against its peers over HTTP on each Node line given (`--node`), and
// its dispatch cost against path depth in this process; writes the results, the charts and the
// README tables. `--help` lists the options.
//
//   node --conditions=source --import tsx benchmarks/run.ts [--quick] [--node current,26.10.0] [--routes hello,depth8] [--frameworks hickory,fastify]
import { loadavg } from 'node:os';
import { runDepth, type DepthResult } from './depth.ts';
import { runHttp } from './http/load.ts';
import { describeMachine } from './machine.ts';
import { nodeLabel, resolveNodeLines, type NodeLine } from './node-lines.ts';
import { parseOptions, USAGE, type BenchOptions } from './options.ts';
import { writeReport } from './report.ts';
import type { LineResult, Results } from './results.ts';
import { markdownTables } from './tables.ts';
import { depthTargets, httpTargets } from './targets.ts';

let options: BenchOptions;
let nodes: NodeLine[];
try {
  options = parseOptions(process.argv.slice(2));
  // Before anything is measured: a missing binary or a failed install stops the run at once.
  nodes = resolveNodeLines(options.nodes);
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const started = performance.now();
const machine = describeMachine();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);
log(`${machine.cores} × ${machine.model}, ${machine.os}, load average ${machine.loadAverage}; servers on ${nodes.map((n) => nodeLabel(n.version)).join(', ')}`);
log(`frameworks ${options.frameworks.join(', ')}; routes ${options.routes.join(', ')}; ${options.rounds} round(s) × ${options.duration}s per line`);

// Depth first, while no server process competes for the cores.
let depth: DepthResult | undefined;
if (options.depth) {
  log(`dispatch depth (mitata, in process, ${nodeLabel(process.version)})`);
  depth = await runDepth({ minCpuTimeMs: options.depthCpuMs, log });
}
const lines: LineResult[] = [];
for (const node of nodes) {
  log(`HTTP suite, servers on ${nodeLabel(node.version)} (${node.binary})`);
  const http = await runHttp({ ...options, node: node.binary, log });
  lines.push({ node: node.version, binary: node.binary, http, targets: httpTargets(http) });
}

const { write, ...settings } = options;
const results: Results = {
  date: new Date().toISOString().slice(0, 10),
  command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  settings,
  machine,
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
log('done');
