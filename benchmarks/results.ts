// What `npm run bench` keeps of a run (results/<date>.json, latest.json): the HTTP numbers and
// targets of each Node line, and the in-process benchmark's once. Files written before the
// lines (one `http` and one `targets` at the top) are read as a run of a single line.
import type { DepthResult } from './depth.ts';
import type { HttpCell } from './http/load.ts';
import type { Machine } from './machine.ts';
import type { BenchOptions } from './options.ts';
import type { TargetCheck } from './targets.ts';

/** One Node line's HTTP suite: its servers all ran on `binary`. */
export interface LineResult {
  /** The version the servers' Node reported (`v26.10.0`). */
  node: string;
  binary: string;
  http: HttpCell[];
  /** The HTTP targets, with ratios within this line's rounds. */
  targets: TargetCheck[];
}

/** Everything one run produced. */
export interface Results {
  date: string;
  command: string;
  settings: Omit<BenchOptions, 'write'>;
  /** The machine, and the Node of this process (it runs the depth benchmark and starts wrk). */
  machine: Machine;
  /** wrk's version (`debian/4.1.0-3+b2`); absent in the runs before issue #32, which autocannon loaded from cores it shared with the servers. */
  loadGenerator?: string;
  /** 1-minute load average when the run ended (the start's is in `machine`). */
  loadAverageAtEnd: number;
  /** In the order `--node` gave them. */
  lines: LineResult[];
  depth?: DepthResult;
  /** The targets measured in this process (the dispatch slope), on `machine.node`. */
  targets: TargetCheck[];
}

// The shape written until the runs had lines: the servers ran on the benchmark's own Node.
interface SingleLineResults extends Omit<Results, 'lines' | 'settings'> {
  settings: Omit<BenchOptions, 'write' | 'nodes'>;
  http: HttpCell[];
}

/**
 * A results file's content as a `Results`, whichever shape it was written in.
 *
 * @example
 * ```ts
 * const results = readResults(JSON.parse(readFileSync('benchmarks/results/latest.json', 'utf8')));
 * ```
 */
export function readResults(json: Results | SingleLineResults): Results {
  if ('lines' in json) return json;
  const { http, targets, settings, ...rest } = json;
  // The dispatch slope was the only target in ns, and the only one not measured over HTTP.
  const line: LineResult = { node: json.machine.node, binary: 'current', http, targets: targets.filter((t) => t.unit !== 'ns') };
  return { ...rest, settings: { ...settings, nodes: ['current'] }, lines: [line], targets: targets.filter((t) => t.unit === 'ns') };
}
