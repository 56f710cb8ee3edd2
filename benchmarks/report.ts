// The run's report: JSON under results/, the two SVG charts, and the tables in README.md
// (between markers, so that a rerun replaces them).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { barChart } from './charts/bars.ts';
import { lineChart } from './charts/lines.ts';
import type { DepthResult } from './depth.ts';
import type { HttpCell } from './http/load.ts';
import type { Machine } from './machine.ts';
import type { BenchOptions } from './options.ts';
import { ROUTE_PATHS, ROUTE_TITLES, type RouteName } from './routes.ts';
import { FRAMEWORK_TITLES, type Framework } from './servers/server.ts';
import type { TargetCheck } from './targets.ts';

/** Everything one run produced. */
export interface Results {
  date: string;
  command: string;
  settings: Omit<BenchOptions, 'write'>;
  machine: Machine;
  /** 1-minute load average when the run ended (the start's is in `machine`). */
  loadAverageAtEnd: number;
  http: HttpCell[];
  depth?: DepthResult;
  targets: TargetCheck[];
}

const HERE = fileURLToPath(new URL('./', import.meta.url));
export const RESULTS_DIR = `${HERE}results/`;
export const README = `${HERE}README.md`;
export const MARK_START = '<!-- bench-results:start (written by benchmarks/report.ts; do not edit by hand) -->';
export const MARK_END = '<!-- bench-results:end -->';

const num = (v: number) => Math.round(v).toLocaleString('en-US');

function cellOf(results: Results, framework: Framework, route: RouteName): HttpCell | undefined {
  return results.http.find((c) => c.framework === framework && c.route === route);
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
  const { settings, machine } = results;
  const lines: string[] = [];
  lines.push(
    `Run of ${results.date}${settings.quick ? ' (**--quick**: smoke numbers, not a measurement)' : ''}: \`${results.command}\`  `,
    `Machine: ${machine.cores} × ${machine.model}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; 1-minute load average ${machine.loadAverage} at the start, ${results.loadAverageAtEnd} at the end.  `,
    `autocannon: ${settings.connections} connections, pipelining ${settings.pipelining}, ${settings.warmup} s warm-up, ` +
      `${settings.rounds} round(s) × ${settings.duration} s per framework and route, frameworks interleaved; median of the rounds. ` +
      `**Client and server share the cores** (one process each, over 127.0.0.1) on a shared, noisy machine: compare ratios within a run, not absolute numbers across runs.`,
    '',
  );
  const routes = settings.routes;
  const header = `| framework | ${routes.map((r) => `${ROUTE_TITLES[r]}<br>\`${ROUTE_PATHS[r]}\``).join(' | ')} |`;
  lines.push('**Requests per second** (median; p99 latency in ms below)', '', header, `|---|${routes.map(() => '---:').join('|')}|`);
  for (const framework of settings.frameworks) {
    const row = routes.map((route) => {
      const cell = cellOf(results, framework, route);
      if (!cell || cell.rps === undefined) return `n/a${cell?.skipped ? ` ¹` : ''}`;
      return `${num(cell.rps)}<br><sub>p99 ${cell.p99} ms${cell.failures ? `, ⚠ ${cell.failures} failed` : ''}</sub>`;
    });
    lines.push(`| ${FRAMEWORK_TITLES[framework]} | ${row.join(' | ')} |`);
  }
  const skipped = results.http.filter((c) => c.skipped);
  if (skipped.length) {
    lines.push('');
    for (const c of skipped) lines.push(`¹ ${FRAMEWORK_TITLES[c.framework]} ${c.route}: ${c.skipped}  `);
  }
  if (results.http.some((c) => c.cpuPerRequest !== undefined)) {
    lines.push(
      '',
      "**Server CPU time per request** (µs, user + system from /proc, median of the rounds; lower is better). Throughput on a shared machine swings with other tenants' load; the CPU a server spends per request moves less, and shows what each framework costs.",
      '',
      `| framework | ${routes.map((r) => ROUTE_TITLES[r]).join(' | ')} |`,
      `|---|${routes.map(() => '---:').join('|')}|`,
    );
    for (const framework of settings.frameworks) {
      const row = routes.map((route) => {
        const cpu = cellOf(results, framework, route)?.cpuPerRequest;
        return cpu === undefined ? 'n/a' : cpu.toFixed(1);
      });
      lines.push(`| ${FRAMEWORK_TITLES[framework]} | ${row.join(' | ')} |`);
    }
  }
  lines.push(
    '',
    '**Targets** (Hickory against its peer: the median over the rounds of the ratio within a round; the range shows the noise)',
    '',
    '| target | measured | per-round range | goal | |',
    '|---|---:|---:|---|---|',
  );
  for (const t of results.targets) {
    const value = t.value === undefined ? 'not measured' : t.unit === 'ns' ? `${t.value.toFixed(1)} ns` : `${t.value.toFixed(2)}×`;
    const range = t.range ? `${t.range[0].toFixed(2)}–${t.range[1].toFixed(2)}×` : '';
    lines.push(`| ${t.name} | ${value} | ${range} | ${t.goal} | ${t.pass === undefined ? '—' : t.pass ? 'met' : '**not met**'} |`);
  }
  if (results.depth) {
    const { rows, slope } = results.depth;
    lines.push(
      '',
      '**Dispatch depth** (mitata, in process; ns per lookup of a static path of that many segments)',
      '',
      '| depth | hickory `resolvePath` | hickory `walk` | find-my-way `find` | resolvePath / find |',
      '|---:|---:|---:|---:|---:|',
    );
    for (const r of rows) lines.push(`| ${r.depth} | ${num(r.resolvePath)} | ${num(r.walk)} | ${num(r.findMyWay)} | ${(r.resolvePath / r.findMyWay).toFixed(1)}× |`);
    lines.push(`| slope (ns/segment) | ${slope.resolvePath.toFixed(1)} | ${slope.walk.toFixed(1)} | ${slope.findMyWay.toFixed(1)} | |`);
  }
  lines.push('', '![requests per second](results/req-per-s.svg)', '', '![dispatch cost against depth](results/depth.svg)');
  return lines.join('\n');
}

function requestsChart(results: Results): string {
  const { routes, frameworks } = results.settings;
  return barChart({
    title: 'Requests per second (median of rounds, higher is better)',
    subtitle: `${results.date} · ${results.machine.cores} cores shared by client and server · Node ${results.machine.node} · ${results.settings.connections} conns, pipelining ${results.settings.pipelining}`,
    yLabel: 'requests per second',
    groups: routes.map((r) => ROUTE_TITLES[r]),
    series: frameworks.map((f) => FRAMEWORK_TITLES[f]),
    values: routes.map((route) => frameworks.map((f) => cellOf(results, f, route)?.rps)),
  });
}

function depthChart(depth: DepthResult, results: Results): string {
  return lineChart({
    title: 'Resolving a static path: ns per lookup against depth (lower is better)',
    subtitle: `slope: resolvePath ${depth.slope.resolvePath.toFixed(1)} ns/segment · walk ${depth.slope.walk.toFixed(1)} · find-my-way ${depth.slope.findMyWay.toFixed(1)} · ${results.date}, Node ${results.machine.node}`,
    xLabel: 'path depth (segments)',
    yLabel: 'ns per lookup',
    xs: depth.rows.map((r) => r.depth),
    series: [
      { name: 'hickory resolvePath', ys: depth.rows.map((r) => r.resolvePath) },
      { name: 'hickory walk', ys: depth.rows.map((r) => r.walk) },
      { name: 'find-my-way find', ys: depth.rows.map((r) => r.findMyWay) },
    ],
  });
}

/** A marked block of the README: the text between `start` and `end` belongs to a script. */
export interface Markers {
  start: string;
  end: string;
  /** The heading put above the block when the README does not have it yet. */
  heading: string;
}

const SUITE_MARKERS: Markers = { start: MARK_START, end: MARK_END, heading: 'Latest results' };

/**
 * Replaces the text between the markers (or appends the marked block, under its heading, when
 * they are missing).
 *
 * @example
 * ```ts
 * replaceBetweenMarkers(readme, markdownTables(results));
 * ```
 */
export function replaceBetweenMarkers(text: string, block: string, markers: Markers = SUITE_MARKERS): string {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  const marked = `${markers.start}\n${block}\n${markers.end}`;
  if (start === -1 || end === -1 || end < start) return `${text.trimEnd()}\n\n## ${markers.heading}\n\n${marked}\n`;
  return text.slice(0, start) + marked + text.slice(end + markers.end.length);
}

/**
 * Writes `results/<date>.json`, `results/latest.json`, the SVG charts and the README tables.
 * Gives back the paths written.
 *
 * @example
 * ```ts
 * const written = await writeReport(results);
 * ```
 */
export async function writeReport(results: Results): Promise<string[]> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const written = [`${RESULTS_DIR}${results.date}.json`, `${RESULTS_DIR}latest.json`, `${RESULTS_DIR}req-per-s.svg`];
  await writeFile(written[0]!, json);
  await writeFile(written[1]!, json);
  await writeFile(written[2]!, requestsChart(results));
  if (results.depth) {
    written.push(`${RESULTS_DIR}depth.svg`);
    await writeFile(`${RESULTS_DIR}depth.svg`, depthChart(results.depth, results));
  }
  const readme = existsSync(README) ? await readFile(README, 'utf8') : '# Benchmarks\n';
  await writeFile(README, replaceBetweenMarkers(readme, markdownTables(results)));
  written.push(README);
  return written;
}
