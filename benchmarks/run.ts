// `npm run bench`: Hickory against its peers over HTTP, and its dispatch cost against path depth;
// writes the results, the charts and the README tables. `--help` lists the options.
//
//   node --conditions=source --import tsx benchmarks/run.ts [--quick] [--routes hello,depth8] [--frameworks hickory,fastify]
import { loadavg } from 'node:os';
import { runDepth, type DepthResult } from './depth.ts';
import { runHttp } from './http/load.ts';
import { describeMachine } from './machine.ts';
import { parseOptions, USAGE } from './options.ts';
import { nodeVersion } from './node-binary.ts';
import { markdownTables, writeReport, type Results } from './report.ts';
import { checkTargets } from './targets.ts';

let options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const started = performance.now();
const machine = describeMachine();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`);
log(`${machine.cores} × ${machine.model}, servers on Node ${nodeVersion(options.node)}, ${machine.os}, load average ${machine.loadAverage}`);
log(`frameworks ${options.frameworks.join(', ')}; routes ${options.routes.join(', ')}; ${options.rounds} round(s) × ${options.duration}s`);

// Depth first, while no server process competes for the cores.
let depth: DepthResult | undefined;
if (options.depth) {
  log('dispatch depth (mitata, in process)');
  depth = await runDepth({ minCpuTimeMs: options.depthCpuMs, log });
}
const http = await runHttp({ ...options, log });

const { write, ...settings } = options;
const results: Results = {
  date: new Date().toISOString().slice(0, 10),
  command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  settings,
  machine,
  loadAverageAtEnd: Math.round(loadavg()[0]! * 100) / 100,
  http,
  depth,
  targets: checkTargets(http, depth),
};
console.log(`\n${markdownTables(results)}\n`);
if (write) {
  for (const path of await writeReport(results)) log(`wrote ${path}`);
} else {
  log('nothing written (--quick or --dry-run; pass --write to keep these numbers)');
}
log('done');
