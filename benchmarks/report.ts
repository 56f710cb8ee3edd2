// The run's report: JSON under results/, the two SVG charts, the tables in benchmarks/README.md
// and the short table in the repository's README (each between markers, so that a rerun replaces
// them; the tables themselves are tables.ts's).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { barChart } from './charts/bars.ts';
import { lineChart } from './charts/lines.ts';
import type { DepthResult } from './depth.ts';
import { nodeLabel } from './node-lines.ts';
import type { Results } from './results.ts';
import { ROUTE_TITLES } from './routes.ts';
import { plainTitle } from './servers/variants.ts';
import { cellOf, markdownTables, summaryTable } from './tables.ts';

const HERE = fileURLToPath(new URL('./', import.meta.url));
export const RESULTS_DIR = `${HERE}results/`;
export const README = `${HERE}README.md`;
export const MARK_START = '<!-- bench-results:start (written by benchmarks/report.ts; do not edit by hand) -->';
export const MARK_END = '<!-- bench-results:end -->';
const ROOT_README = `${HERE}../README.md`;

// One bar group per route and Node line, a line's groups next to their route's others: the
// frameworks keep their colours across the lines.
function requestsChart(results: Results): string {
  const { routes, frameworks } = results.settings;
  const groups = routes.flatMap((route) => results.lines.map((line) => ({ route, line })));
  return barChart({
    title: 'Requests per second (median of rounds, higher is better)',
    subtitle: `${results.date} · each server pinned to one core, wrk on ${results.settings.clientCores.length === 1 ? 'another core' : `${results.settings.clientCores.length} other cores`} · servers on ${results.lines.map((l) => nodeLabel(l.node)).join(', ')} · ${results.settings.connections} keep-alive connections, no pipelining`,
    yLabel: 'requests per second',
    groups: groups.map(({ route }) => ROUTE_TITLES[route]),
    groupNotes: groups.map(({ line }) => nodeLabel(line.node)),
    series: frameworks.map((f) => plainTitle(f)),
    values: groups.map(({ route, line }) => frameworks.map((f) => cellOf(line, f, route)?.rps)),
  });
}

function depthChart(depth: DepthResult, results: Results): string {
  return lineChart({
    title: 'Resolving a static path: ns per lookup against depth (lower is better)',
    subtitle: `slope: resolvePath ${depth.slope.resolvePath.toFixed(1)} ns/segment · walk ${depth.slope.walk.toFixed(1)} · find-my-way ${depth.slope.findMyWay.toFixed(1)} · ${results.date}, ${nodeLabel(results.machine.node)}, in process`,
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
const SUMMARY_MARKERS: Markers = {
  start: '<!-- bench-summary:start (written by benchmarks/report.ts; do not edit by hand) -->',
  end: '<!-- bench-summary:end -->',
  heading: 'Speed',
};

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
 * Writes `results/<date>.json`, `results/latest.json`, the SVG charts, the tables of
 * benchmarks/README.md and the short table of the repository's README. Gives back the paths written.
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
  await writeFile(ROOT_README, replaceBetweenMarkers(await readFile(ROOT_README, 'utf8'), summaryTable(results), SUMMARY_MARKERS));
  written.push(ROOT_README);
  return written;
}
