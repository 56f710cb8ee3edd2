// `npm run bench:instructions`: instructions per request, counted by valgrind's callgrind, on each
// Node line given (`--node`): a measure of what a framework costs that does not move with the
// machine's load. Each server runs under callgrind in its own process (instructions/count.ts); the
// lowest of a few windows is reported, since one with a full garbage collection counts more. Only
// user-space instructions are counted: the kernel's share (the writev system call, the same for
// every server) is not, so the differences between frameworks stand out more than in CPU time.
//
//   npm run bench:instructions -- [--routes hello,depth8] [--frameworks hickory,fastify,node,node-als]
//     [--node current,26.10.0] [--requests 10000] [--windows 3] [--write | --dry-run]
import { readFile, writeFile } from 'node:fs/promises';
import { countAll, hasCallgrind } from './instructions/count.ts';
import { countInProcess } from './instructions/count-in-process.ts';
import { parseInstructionsOptions, USAGE, type InstructionsOptions } from './instructions/options.ts';
import { instructionsTable, type InstructionsRun, type LineCounts } from './instructions/table.ts';
import { describeMachine } from './machine.ts';
import { nodeLabel, resolveNodeLines, type NodeLine } from './node-lines.ts';
import { README, replaceBetweenMarkers, RESULTS_DIR, type Markers } from './report.ts';

const MARKERS: Markers = {
  start: '<!-- instructions:start (written by benchmarks/instructions.ts; do not edit by hand) -->',
  end: '<!-- instructions:end -->',
  heading: 'Instructions per request',
};
const IN_PROCESS_MARKERS: Markers = {
  start: '<!-- instructions-in-process:start (written by benchmarks/instructions.ts --in-process; do not edit by hand) -->',
  end: '<!-- instructions-in-process:end -->',
  heading: 'Instructions per request, in process',
};

async function main(): Promise<void> {
  let options: InstructionsOptions;
  let nodes: NodeLine[];
  try {
    options = parseInstructionsOptions(process.argv.slice(2));
    nodes = resolveNodeLines(options.nodes);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (!(await hasCallgrind())) {
    console.error('valgrind (with callgrind_control) is needed: apt-get install valgrind');
    process.exit(2);
  }
  const lines: LineCounts[] = [];
  for (const node of nodes) {
    console.log(`Counting instructions per request under callgrind on ${nodeLabel(node.version)}: ${options.variants.join(', ')} × ${options.routes.join(', ')}`);
    const counts = await (options.inProcess ? countInProcess : countAll)({ ...options, node: node.binary });
    lines.push({ node: node.version, binary: node.binary, counts });
  }
  const run: InstructionsRun = {
    date: new Date().toISOString().slice(0, 10),
    command: ['npm run bench:instructions', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
    machine: describeMachine(),
    settings: { ...options.load, windows: options.windows, routes: options.routes, frameworks: options.variants, nodes: options.nodes, inProcess: options.inProcess },
    lines,
  };
  const block = instructionsTable(run);
  console.log(`\n${block}`);
  if (!options.write) {
    console.log('\nnothing written (pass --write to keep these counts)');
    return;
  }
  // One file for every line (the per-line instructions-node<N>.json files of earlier runs are kept as they are).
  const file = `${RESULTS_DIR}instructions${options.inProcess ? '-in-process' : ''}.json`;
  await writeFile(file, `${JSON.stringify(run, null, 2)}\n`);
  await writeFile(README, replaceBetweenMarkers(await readFile(README, 'utf8'), block, options.inProcess ? IN_PROCESS_MARKERS : MARKERS));
  console.log(`\nwrote ${file} and the table in ${README}`);
}

await main();
