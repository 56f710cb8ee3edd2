// The side-by-side suite's Markdown: one table per Node line (a row per route and pair), kept in
// benchmarks/README.md between markers of its own, one block per Node major line.
import { summarizePair, STARVED_IDLE } from './http/paired-stats.ts';
import type { PairResult } from './http/side-by-side.ts';
import { nodeLabel } from './node-lines.ts';
import type { Markers } from './report.ts';
import { ROUTE_TITLES } from './routes.ts';

const ratio = (r: { median: number; min: number; max: number } | undefined) => (r === undefined ? '–' : `**${r.median.toFixed(2)}×**<br><sub>${r.min.toFixed(2)}–${r.max.toFixed(2)}</sub>`);
const micros = (v: number | undefined) => (v === undefined ? '?' : v.toFixed(1));
// Other processes' share of the servers' core: the drift the pairing cancels shows here, with its range.
const share = (r: { median: number; min: number; max: number } | undefined) => (r === undefined ? '?' : `${Math.round(r.median * 100)}%<br><sub>${Math.round(r.min * 100)}–${Math.round(r.max * 100)}%</sub>`);
const thousands = (v: number | undefined) => (v === undefined ? '?' : `${(v / 1000).toFixed(1)}k`);

/**
 * The Markdown table of a run: per route and pair the median A/B ratios of CPU per request and of
 * requests/s with their range over the rounds, each side's medians, the share of the servers' core
 * other work took, the rounds, and the rounds flagged (server core idle above 5%) or failed.
 *
 * @example
 * ```ts
 * console.log(sideBySideTable(await runSideBySide(settings)));
 * ```
 */
export function sideBySideTable(results: readonly PairResult[]): string {
  const rows = results.map(({ pair: [a, b], route, rounds, skipped }) => {
    const head = `| ${ROUTE_TITLES[route]} | ${a} / ${b}`;
    if (skipped !== undefined) return `${head} | skipped: ${skipped.replaceAll('|', '\\|')} | | | | | |`;
    const s = summarizePair(rounds);
    const flags = [
      s.starved ? `${s.starved} starved (core idle up to ${Math.round(s.worstIdle! * 100)}%)` : '',
      s.failures ? `${s.failures} failed requests` : '',
    ].filter(Boolean);
    return (
      `${head} | ${ratio(s.cpu)} | ${ratio(s.rps)} | ${micros(s.cpuPerRequest[0])} / ${micros(s.cpuPerRequest[1])}` +
      ` | ${thousands(s.requestsPerSecond[0])} / ${thousands(s.requestsPerSecond[1])} | ${share(s.otherWork)} | ${s.rounds}${flags.length ? ` (${flags.join(', ')})` : ''} |`
    );
  });
  return [
"| route | A / B | CPU per request A/B<br>median, range | requests/s A/B<br>median, range | µs per request<br>A / B (medians) | requests/s<br>A / B (medians) | other work on<br>the servers' core | rounds |",
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

/**
 * The README block of one Node line: when and how it ran, then the table.
 *
 * @example
 * ```ts
 * sideBySideBlock({ date: '2026-11-28', version: 'v26.10.0', command: 'npm run bench:side-by-side -- --control' }, results);
 * ```
 */
export function sideBySideBlock(run: { date: string; version: string; command: string; loadAverage?: number }, results: readonly PairResult[]): string {
  const load = run.loadAverage === undefined ? '' : `, load average ${run.loadAverage} at the start`;
  return [
    `Run of ${run.date}, servers on ${nodeLabel(run.version)}${load}: \`${run.command}\``,
    '',
    sideBySideTable(results),
    '',
    `A ratio below 1× in the CPU column means A needs less CPU time per request; above 1× in the requests/s column, A served more. A round is flagged "starved" when the server core sat idle for more than ${Math.round(STARVED_IDLE * 100)}% of it (the two wrk did not keep the servers busy); flagged rounds stay in the medians.`,
  ].join('\n');
}

/**
 * The README markers of one Node line's block (by major version, so that a run on Node 20 and one
 * on Node 26 keep a block each).
 *
 * @example
 * ```ts
 * sideBySideMarkers('v26.10.0').start; // '<!-- side-by-side-node26:start (written by benchmarks/side-by-side.ts; do not edit by hand) -->'
 * ```
 */
export function sideBySideMarkers(version: string): Markers {
  const major = version.replace(/^v/, '').split('.')[0]!;
  return {
    start: `<!-- side-by-side-node${major}:start (written by benchmarks/side-by-side.ts; do not edit by hand) -->`,
    end: `<!-- side-by-side-node${major}:end -->`,
    heading: `Side by side, Node ${major}`,
  };
}
