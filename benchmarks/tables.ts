// The Markdown tables of a run: the header saying how it was measured, a table per Node line
// (requests/s and the server's CPU time per request, each route; medians with the rounds' spread,
// and ratios to fastify), the targets, the dispatch-depth series; and the short table of Hickory
// against fastify for the repository's README.
import type { DepthRow } from './depth.ts';
import type { LoadSample } from './http/sample.ts';
import type { HttpCell } from './http/load.ts';
import { nodeLabel } from './node-lines.ts';
import type { LineResult, Results } from './results.ts';
import { ROUTE_TITLES, type RouteName } from './routes.ts';
import { VARIANTS, type VariantName } from './servers/variants.ts';
import { spread } from './stats.ts';
import { pairedRatio, type Ratio, type TargetCheck } from './targets.ts';

/** The server every ratio is taken against. */
const REFERENCE: VariantName = 'fastify';

/** The Hickory servers the README's short table shows, in its order. */
const SUMMARY_SERVERS: readonly VariantName[] = ['hickory-app-schema', 'hickory-schema', 'hickory-app', 'hickory'];

const num = (v: number) => Math.round(v).toLocaleString('en-US');
const times = (v: number) => `${v.toFixed(2)}×`;

/**
 * One server's cell on one route in one line's run.
 *
 * @example
 * ```ts
 * cellOf(results.lines[0]!, 'hickory', 'hello')?.rps;
 * ```
 */
export function cellOf(line: LineResult, framework: VariantName, route: RouteName): HttpCell | undefined {
  return line.http.find((c) => c.framework === framework && c.route === route);
}

function method(results: Results): string {
  const { settings } = results;
  if (results.loadGenerator === undefined) {
    // Runs written before issue #32: kept readable, and labelled for what they were.
    const old = settings as unknown as { connections: number; pipelining: number; warmup: number; rounds: number; duration: number };
    return (
      `Method (before issue #32): autocannon, ${old.connections} connections, pipelining ${old.pipelining}, ${old.warmup} s warm-up, ${old.rounds} round(s) × ${old.duration} s; ` +
      '**client and server shared the cores**, which hides differences of 10–20%.'
    );
  }
  const pinned = (cores: readonly number[]) => `core${cores.length > 1 ? 's' : ''} ${cores.join(',')} (\`taskset -c ${cores.join(',')}\`)`;
  return (
    `Method: each server runs the packages' \`dist\` (built by \`tsc -b benchmarks\`), in its own process pinned to ${pinned([settings.serverCore])}; ` +
    `wrk ${results.loadGenerator} pinned to ${pinned(settings.clientCores)}, ${settings.threads} thread(s), ${settings.connections} connections, keep-alive, no pipelining; ` +
    `${settings.warmup} s of warm-up per server and route, then ${settings.rounds} round(s) × ${settings.duration} s in which the servers take turns on each route (the order rotating every round). ` +
    `Medians of the rounds, their lowest–highest below; a ratio is the median of the per-round ratios to fastify 5 (which serializes through its response schema). ` +
    `CPU per request: the server process's user + system time (\`/proc/<pid>/stat\`) over a run, divided by the requests wrk completed.`
  );
}

function header(results: Results): string[] {
  const { machine, settings, lines } = results;
  return [
    `Run of ${results.date}${settings.quick ? ' (**--quick**: a check of the tool, not a measurement)' : ''}: \`${results.command}\`  `,
    `Machine: ${machine.cores} × ${machine.model}, ${machine.memoryGiB} GiB, ${machine.os}; servers on ${lines.map((l) => nodeLabel(l.node)).join(', ')} (one line after the other); ` +
      `1-minute load average ${machine.loadAverage} at the start, ${results.loadAverageAtEnd} at the end.  `,
    method(results),
  ];
}

// "55,943 · 0.94×" over "54,100–57,020 · 0.90–0.97×": a median, its rounds' spread, and the ratio to fastify when there is one.
function valueCell(values: readonly number[], ratio: Ratio | undefined, format: (v: number) => string, failures = 0): string {
  const s = spread(values);
  if (s === undefined) return 'n/a';
  const top = ratio ? `${format(s.median)} · ${times(ratio.value)}` : format(s.median);
  const range = `${format(s.min)}–${format(s.max)}${ratio ? ` · ${ratio.range[0].toFixed(2)}–${times(ratio.range[1])}` : ''}`;
  return `${top}<br><sub>${range}${failures ? `, ⚠ ${failures} failed` : ''}</sub>`;
}

const defined = (values: Array<number | undefined>) => values.filter((v): v is number => v !== undefined);

// Where the server's core went during the line's runs: other work, and idle time (the load generator falling behind).
function coreNote(line: LineResult): string {
  const samples = line.http.flatMap((c) => c.samples).filter((s): s is LoadSample & Required<Pick<LoadSample, 'serverCore'>> => s.serverCore !== undefined);
  const other = spread(samples.map((s) => s.serverCore.other * 100));
  const idle = spread(samples.map((s) => s.serverCore.idle * 100));
  if (!other || !idle) return '';
  return ` — the server's core during a run: other work ${other.median.toFixed(0)}% (at most ${other.max.toFixed(0)}%), idle ${idle.median.toFixed(0)}% (at most ${idle.max.toFixed(0)}%)`;
}

function servers(results: Results): VariantName[] {
  const { frameworks } = results.settings;
  return frameworks.includes(REFERENCE) ? [REFERENCE, ...frameworks.filter((f) => f !== REFERENCE)] : [...frameworks];
}

function lineTable(results: Results, line: LineResult): string[] {
  const { routes } = results.settings;
  const out = [
    '',
    `**${nodeLabel(line.node)}**${coreNote(line)}`,
    '',
    `| server | ${routes.map((r) => `${ROUTE_TITLES[r]}<br>requests/s | ${ROUTE_TITLES[r]}<br>CPU µs per request`).join(' | ')} |`,
    `|---|${routes.map(() => '---:|---:').join('|')}|`,
  ];
  for (const name of servers(results)) {
    const row = routes.flatMap((route) => {
      const cell = cellOf(line, name, route);
      if (!cell || cell.skipped || cell.samples.length === 0) return [`n/a${cell?.skipped ? ' ¹' : ''}`, 'n/a'];
      const vsReference = (pick: (s: LoadSample) => number | undefined) => (name === REFERENCE ? undefined : pairedRatio(line.http, route, name, REFERENCE, pick));
      return [
        valueCell(cell.samples.map((s) => s.rps), vsReference((s) => s.rps), num, cell.failures),
        valueCell(defined(cell.samples.map((s) => s.cpuPerRequest)), vsReference((s) => s.cpuPerRequest), (v) => v.toFixed(1)),
      ];
    });
    out.push(`| ${VARIANTS[name].title} | ${row.join(' | ')} |`);
  }
  const skipped = line.http.filter((c) => c.skipped);
  if (skipped.length) {
    out.push('');
    for (const c of skipped) out.push(`¹ ${VARIANTS[c.framework].title} ${c.route}: ${c.skipped}  `);
  }
  return out;
}

function targetRow(t: TargetCheck, node: string): string {
  const value = t.value === undefined ? 'not measured' : t.unit === 'ns' ? `${t.value.toFixed(1)} ns` : t.unit === 'KiB' ? `${t.value.toFixed(1)} KiB` : times(t.value);
  const range = t.range ? `${t.range[0].toFixed(2)}–${times(t.range[1])}` : '';
  return `| ${t.name} | ${nodeLabel(node)} | ${value} | ${range} | ${t.goal} | ${t.pass === undefined ? '—' : t.pass ? 'met' : '**not met**'} |`;
}

function targetsTable(results: Results): string[] {
  const lines = [
    '',
    '**Targets** (Hickory against fastify 5: the median over the rounds of the ratio within a round, on one Node line; the range shows the noise)',
    '',
    '| target | Node | measured | per-round range | goal | |',
    '|---|---|---:|---:|---|---|',
  ];
  // A target's lines next to each other: the rows compare one goal across the runtimes.
  const names = [...new Set(results.lines.flatMap((line) => line.targets.map((t) => t.name)))];
  for (const name of names) {
    for (const line of results.lines) {
      const target = line.targets.find((t) => t.name === name);
      if (target) lines.push(targetRow(target, line.node));
    }
  }
  for (const target of results.targets) lines.push(targetRow(target, results.machine.node));
  return lines;
}

function depthTable(results: Results): string[] {
  if (!results.depth) return [];
  const { rows, slope } = results.depth;
  // Runs before 2026-11-27 measured no fresh path: their columns stay out.
  const fresh = rows.every((r) => r.resolveFresh !== undefined && r.findFresh !== undefined);
  const freshHead = fresh ? ' hickory `resolvePath`, fresh path | find-my-way `find`, fresh path |' : '';
  const freshRule = fresh ? '---:|---:|' : '';
  const freshCells = (r: DepthRow): string => (fresh ? ` ${num(r.resolveFresh!)} | ${num(r.findFresh!)} |` : '');
  return [
    '',
    `**Dispatch depth** (mitata, in process on ${nodeLabel(results.machine.node)}; ns per lookup of a static path of that many segments, resolved anew each time from the route plan compiled at \`ready()\`: no memory of paths asked before. The first columns pass one path string, whose hash V8 keeps; the fresh-path columns make the path anew for every lookup, as a request's parser does, so they include making it and reading it whole)`,
    '',
    `| depth | hickory \`resolvePath\` | hickory \`walk\` | find-my-way \`find\` | resolvePath / find |${freshHead}`,
    `|---:|---:|---:|---:|---:|${freshRule}`,
    ...rows.map((r) => `| ${r.depth} | ${num(r.resolvePath)} | ${num(r.walk)} | ${num(r.findMyWay)} | ${(r.resolvePath / r.findMyWay).toFixed(1)}× |${freshCells(r)}`),
    `| slope (ns/segment) | ${slope.resolvePath.toFixed(1)} | ${slope.walk.toFixed(1)} | ${slope.findMyWay.toFixed(1)} | |${fresh ? ` ${(slope.resolveFresh ?? 0).toFixed(1)} | ${(slope.findFresh ?? 0).toFixed(1)} |` : ''}`,
  ];
}

/**
 * The tables of a run, in Markdown (also printed to the console), for benchmarks/README.md.
 *
 * @example
 * ```ts
 * console.log(markdownTables(results));
 * ```
 */
export function markdownTables(results: Results): string {
  return [
    ...header(results),
    ...results.lines.flatMap((line) => lineTable(results, line)),
    ...targetsTable(results),
    ...depthTable(results),
    '',
    '![requests per second](results/req-per-s.svg)',
    ...(results.depth ? ['', '![dispatch cost against depth](results/depth.svg)'] : []),
  ].join('\n');
}

// "0.94× <sub>0.90–0.97</sub>": the median ratio to fastify, then the rounds' spread.
function ratioCell(ratio: Ratio | undefined): string {
  return ratio ? `${times(ratio.value)} <sub>${ratio.range[0].toFixed(2)}–${ratio.range[1].toFixed(2)}</sub>` : 'n/a';
}

/**
 * The repository README's table: Hickory (`createApp()` and the bare kernel) against fastify on
 * each route, requests/s and CPU per request, a column pair per Node line.
 *
 * @example
 * ```ts
 * const block = summaryTable(results);
 * ```
 */
export function summaryTable(results: Results): string {
  const { settings, machine } = results;
  const shown = SUMMARY_SERVERS.filter((s) => settings.frameworks.includes(s));
  const out = [
    `\`npm run bench\`, ${results.date}${settings.quick ? ' (**--quick**: a check of the tool, not a measurement)' : ''}: each server runs the packages' \`dist\` on one core, wrk loads it from ` +
      `${settings.clientCores.length > 1 ? 'other cores' : 'the other core'} (${settings.connections} connections, keep-alive, no pipelining), ` +
      `${settings.rounds} round(s) × ${settings.duration} s after a warm-up, on ${machine.cores} × ${machine.model} (load average ${machine.loadAverage} at the start, ${results.loadAverageAtEnd} at the end). ` +
      'Hickory against fastify 5 with its response schema: the median of the per-round ratios, the rounds\' lowest–highest after it. ' +
      'Every number, node:http and express beside them: [benchmarks/README.md](benchmarks/README.md#latest-results).',
    '',
    `| Hickory / fastify 5 | ${results.lines.map((l) => `${nodeLabel(l.node)}<br>requests/s | ${nodeLabel(l.node)}<br>CPU per request`).join(' | ')} |`,
    `|---|${results.lines.map(() => '---:|---:').join('|')}|`,
  ];
  for (const route of settings.routes.filter((r) => r !== 'page')) {
    for (const self of shown) {
      const row = results.lines.flatMap((line) => [
        ratioCell(pairedRatio(line.http, route, self, REFERENCE, (s) => s.rps)),
        ratioCell(pairedRatio(line.http, route, self, REFERENCE, (s) => s.cpuPerRequest)),
      ]);
      out.push(`| ${ROUTE_TITLES[route]}, ${VARIANTS[self].title.replace(/^hickory, /, '')} | ${row.join(' | ')} |`);
    }
  }
  return out.join('\n');
}
