// The Markdown tables of a run (the README's bench-results block, and the console): each Node
// line's numbers side by side, a column per route and line, so that one framework on one route
// reads across the lines and the ratios within a line read down a column.
import type { HttpCell } from './http/load.ts';
import { nodeLabel } from './node-lines.ts';
import type { LineResult, Results } from './results.ts';
import { ROUTE_PATHS, ROUTE_TITLES, type RouteName } from './routes.ts';
import { FRAMEWORK_TITLES, type Framework } from './servers/server.ts';
import type { TargetCheck } from './targets.ts';

const num = (v: number) => Math.round(v).toLocaleString('en-US');

/**
 * One framework's cell on one route in one line's run.
 *
 * @example
 * ```ts
 * cellOf(results.lines[0]!, 'hickory', 'hello')?.rps;
 * ```
 */
export function cellOf(line: LineResult, framework: Framework, route: RouteName): HttpCell | undefined {
  return line.http.find((c) => c.framework === framework && c.route === route);
}

// The columns of the per-route tables: route-major, so a route's lines stand next to each other.
function columns(results: Results): Array<{ route: RouteName; line: LineResult }> {
  return results.settings.routes.flatMap((route) => results.lines.map((line) => ({ route, line })));
}

function header(results: Results): string[] {
  const { machine, settings, lines } = results;
  const servers = lines.map((l) => nodeLabel(l.node)).join(', ');
  return [
    `Run of ${results.date}${settings.quick ? ' (**--quick**: smoke numbers, not a measurement)' : ''}: \`${results.command}\`  `,
    `Machine: ${machine.cores} × ${machine.model}, ${machine.memoryGiB} GiB, ${machine.os}; the load generator and the depth benchmark on ${nodeLabel(machine.node)}, the servers on ${servers} (one line after the other); 1-minute load average ${machine.loadAverage} at the start, ${results.loadAverageAtEnd} at the end.  `,
    `autocannon: ${settings.connections} connections, pipelining ${settings.pipelining}, ${settings.warmup} s warm-up, ` +
      `${settings.rounds} round(s) × ${settings.duration} s per framework and route, frameworks interleaved within each Node line; median of the rounds. ` +
      `**Client and server share the cores** (one process each, over 127.0.0.1) on a shared, noisy machine: compare ratios within a run and a line, not absolute numbers across runs.`,
  ];
}

function requestsTable(results: Results): string[] {
  const cols = columns(results);
  const lines = [
    '**Requests per second** (median; p99 latency in ms below), a column per route and Node line',
    '',
    `| framework | ${cols.map(({ route, line }) => `${ROUTE_TITLES[route]}<br>\`${ROUTE_PATHS[route]}\`<br>${nodeLabel(line.node)}`).join(' | ')} |`,
    `|---|${cols.map(() => '---:').join('|')}|`,
  ];
  for (const framework of results.settings.frameworks) {
    const row = cols.map(({ route, line }) => {
      const cell = cellOf(line, framework, route);
      if (!cell || cell.rps === undefined) return `n/a${cell?.skipped ? ' ¹' : ''}`;
      return `${num(cell.rps)}<br><sub>p99 ${cell.p99} ms${cell.failures ? `, ⚠ ${cell.failures} failed` : ''}</sub>`;
    });
    lines.push(`| ${FRAMEWORK_TITLES[framework]} | ${row.join(' | ')} |`);
  }
  const skipped = results.lines.flatMap((line) => line.http.filter((c) => c.skipped).map((c) => ({ line, c })));
  if (skipped.length) {
    lines.push('');
    for (const { line, c } of skipped) lines.push(`¹ ${FRAMEWORK_TITLES[c.framework]} ${c.route} on ${nodeLabel(line.node)}: ${c.skipped}  `);
  }
  return lines;
}

function cpuTable(results: Results): string[] {
  if (!results.lines.some((line) => line.http.some((c) => c.cpuPerRequest !== undefined))) return [];
  const cols = columns(results);
  const lines = [
    '',
    "**Server CPU time per request** (µs, user + system from /proc, median of the rounds; lower is better). Throughput on a shared machine swings with other tenants' load; the CPU a server spends per request moves less, and shows what each framework costs.",
    '',
    `| framework | ${cols.map(({ route, line }) => `${ROUTE_TITLES[route]}<br>${nodeLabel(line.node)}`).join(' | ')} |`,
    `|---|${cols.map(() => '---:').join('|')}|`,
  ];
  for (const framework of results.settings.frameworks) {
    const row = cols.map(({ route, line }) => cellOf(line, framework, route)?.cpuPerRequest?.toFixed(1) ?? 'n/a');
    lines.push(`| ${FRAMEWORK_TITLES[framework]} | ${row.join(' | ')} |`);
  }
  return lines;
}

function targetRow(t: TargetCheck, node: string): string {
  const value = t.value === undefined ? 'not measured' : t.unit === 'ns' ? `${t.value.toFixed(1)} ns` : t.unit === 'KiB' ? `${t.value.toFixed(1)} KiB` : `${t.value.toFixed(2)}×`;
  const range = t.range ? `${t.range[0].toFixed(2)}–${t.range[1].toFixed(2)}×` : '';
  return `| ${t.name} | ${nodeLabel(node)} | ${value} | ${range} | ${t.goal} | ${t.pass === undefined ? '—' : t.pass ? 'met' : '**not met**'} |`;
}

function targetsTable(results: Results): string[] {
  const lines = [
    '',
    '**Targets** (Hickory against its peer: the median over the rounds of the ratio within a round, on one Node line; the range shows the noise)',
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
  return [
    '',
    `**Dispatch depth** (mitata, in process on ${nodeLabel(results.machine.node)}; ns per lookup of a static path of that many segments)`,
    '',
    '| depth | hickory `resolvePath` | hickory `walk` | find-my-way `find` | resolvePath / find |',
    '|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.depth} | ${num(r.resolvePath)} | ${num(r.walk)} | ${num(r.findMyWay)} | ${(r.resolvePath / r.findMyWay).toFixed(1)}× |`),
    `| slope (ns/segment) | ${slope.resolvePath.toFixed(1)} | ${slope.walk.toFixed(1)} | ${slope.findMyWay.toFixed(1)} | |`,
  ];
}

/**
 * The tables of a run, in Markdown (also printed to the console).
 *
 * @example
 * ```ts
 * console.log(markdownTables(results));
 * ```
 */
export function markdownTables(results: Results): string {
  return [
    ...header(results),
    '',
    ...requestsTable(results),
    ...cpuTable(results),
    ...targetsTable(results),
    ...depthTable(results),
    '',
    '![requests per second](results/req-per-s.svg)',
    '',
    '![dispatch cost against depth](results/depth.svg)',
  ].join('\n');
}
