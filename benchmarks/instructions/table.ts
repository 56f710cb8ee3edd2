// The README block of `npm run bench:instructions`: instructions per request, a column group per
// Node line (each variant, then hickory / fastify when both were counted), and what the differences are made of.
import type { Machine } from '../machine.ts';
import { nodeLabel } from '../node-lines.ts';
import { ROUTE_TITLES, type RouteName } from '../routes.ts';
import { WARM_UP_WINDOWS, type Count } from './count.ts';
import { IN_PROCESS_WARM_UP } from './count-in-process.ts';
import { VARIANTS, type VariantName } from '../servers/variants.ts';

/** One Node line's counts: its servers all ran on `binary`. */
export interface LineCounts {
  /** The version the servers' Node reported (`v26.10.0`). */
  node: string;
  binary: string;
  counts: Count[];
}

/** What a count run keeps (results/instructions.json). */
export interface InstructionsRun {
  date: string;
  command: string;
  /** The machine, and the Node of the process that sent the load. */
  machine: Machine;
  settings: { requests: number; connections: number; pipelining: number; windows: number; routes: RouteName[]; frameworks: VariantName[]; nodes: string[]; inProcess?: boolean };
  /** In the order `--node` gave them. */
  lines: LineCounts[];
}

function perRequest(line: LineCounts, variant: VariantName, route: RouteName): number | undefined {
  return line.counts.find((c) => c.variant === variant && c.route === route)?.perRequest;
}

function thousands(n: number | undefined): string {
  return n === undefined ? '–' : `${(n / 1000).toFixed(1)}k`;
}

function ratio(a: number | undefined, b: number | undefined): string {
  return a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`;
}

// What the request context costs on one line, when the counts tell: node:http with and without a
// storage, Hickory and fastify, all on /hello.
function contextNote(line: LineCounts): string | undefined {
  const node = perRequest(line, 'node', 'hello');
  const withStorage = perRequest(line, 'node-als', 'hello');
  const hickory = perRequest(line, 'hickory', 'hello');
  const fastify = perRequest(line, 'fastify', 'hello');
  if (node === undefined || withStorage === undefined || hickory === undefined || fastify === undefined) return undefined;
  const context = withStorage - node;
  return (
    `On \`/hello\` on ${nodeLabel(line.node)}, an AsyncLocalStorage alone adds ${thousands(context)} instructions a request to node:http. ` +
    `Hickory's request context is such a storage; without it Hickory would need about ${thousands(hickory - context)}, ` +
    `${ratio(hickory - context, fastify)} of fastify's ${thousands(fastify)}, and its own work (everything above node:http) is ${thousands(hickory - context - node)} against fastify's ${thousands(fastify - node)}.`
  );
}

/**
 * The README block of a count run, in Markdown.
 *
 * @example
 * ```ts
 * console.log(instructionsTable(run));
 * ```
 */
export function instructionsTable(run: InstructionsRun): string {
  const { connections, pipelining, requests, windows, frameworks: variants, routes, inProcess } = run.settings;
  const groups = run.lines.map((line) => ({ line, label: nodeLabel(line.node) }));
  // The ratio of the first Hickory variant counted, when fastify was counted too: a column of dashes says nothing.
  const hickory = variants.find((v) => v.startsWith('hickory'));
  const ratios = hickory !== undefined && variants.includes('fastify');
  const heads = groups.flatMap(({ label }) => [...variants.map((v) => `${label}<br>${VARIANTS[v].title}`), ...(ratios ? [`${label}<br>${hickory} / fastify`] : [])]);
  const method = inProcess
    ? `valgrind's callgrind, each server in a process of its own with V8 on one thread (\`--single-threaded\`, \`NODE_ENV=production\`), requests handed to its \`http.Server\` in process (no socket, no parser, no load generator); ${IN_PROCESS_WARM_UP.toLocaleString('en-US')} requests of warm-up, then ${windows} counted windows of ${requests.toLocaleString('en-US')} (the lowest shown); every thread's instructions. `
    : `valgrind's callgrind; per server and route ${(WARM_UP_WINDOWS * requests).toLocaleString('en-US')} requests of warm-up, then ${windows} counted windows of ${requests.toLocaleString('en-US')} (the lowest shown), ${connections} connections × ${pipelining} pipelined, every request answered before a window ends; user-space instructions only (the kernel's share, mostly the \`writev\` that sends each response, is the same for every server). `;
  const lines = [
    `Run of ${run.date}: \`${run.command}\`  `,
    method + `Servers on ${groups.map((g) => g.label).join(', ')}, one line after the other; a column group per line.`,
    '',
    `| route | ${heads.join(' | ')} |`,
    `|---|${heads.map(() => '---:').join('|')}|`,
  ];
  for (const route of routes) {
    const cells = groups.flatMap(({ line }) => [
      ...variants.map((v) => thousands(perRequest(line, v, route))),
      ...(ratios ? [ratio(perRequest(line, hickory, route), perRequest(line, 'fastify', route))] : []),
    ]);
    lines.push(`| ${ROUTE_TITLES[route]} | ${cells.join(' | ')} |`);
  }
  const notes = run.lines.map(contextNote).filter((note) => note !== undefined);
  for (const note of notes) lines.push('', note);
  return lines.join('\n');
}
