// The Node lines a benchmark measures (`--node current,26.10.0`): each one's servers run on that
// binary, and its numbers are reported under the exact version it reports.
import { nodeBinary, nodeVersion } from './node-binary.ts';

/** `--node`'s word for this process's own Node. */
export const CURRENT = 'current';

/** The lines `npm run bench` measures when `--node` is absent: this machine's Node and Node 26. */
export const DEFAULT_LINES: readonly string[] = [CURRENT, '26.10.0'];

/** One Node line, resolved: the binary its servers run on and the version it reports. */
export interface NodeLine {
  /** As given to `--node` (`current`, `26.10.0` or a path). */
  spec: string;
  binary: string;
  /** What the binary reports (`v26.10.0`). */
  version: string;
}

/**
 * The entries of a comma-separated `--node` (`fallback` when absent), in the order given. Each is
 * `current`, a version (major.minor.patch) or a path; a path is checked when it is resolved.
 *
 * @example
 * ```ts
 * parseNodeList('current, 26.10.0', [CURRENT]); // ['current', '26.10.0']
 * ```
 */
export function parseNodeList(value: string | undefined, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  const specs = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (specs.length === 0) throw new Error('--node needs at least one entry: current, a version such as 26.10.0, or a path');
  for (const spec of specs) {
    // A bare word that is neither would otherwise be taken for a relative path and fail later, less clearly.
    if (spec !== CURRENT && !/^\d+\.\d+\.\d+$/.test(spec) && !spec.includes('/')) {
      throw new Error(`--node ${spec}: not "current", a version (major.minor.patch) or a path`);
    }
  }
  return specs.filter((spec, i) => specs.indexOf(spec) === i);
}

/**
 * Resolves each entry to its binary (installing a version under .cache/node/ when needed) and
 * the version it reports. Two entries that report the same version are refused: their tables
 * would carry the same label.
 *
 * @example
 * ```ts
 * resolveNodeLines(['current', '26.10.0']).map((line) => line.version); // ['v20.20.2', 'v26.10.0']
 * ```
 */
export function resolveNodeLines(specs: readonly string[]): NodeLine[] {
  const lines = specs.map((spec) => {
    const binary = nodeBinary(spec);
    return { spec, binary, version: nodeVersion(binary) };
  });
  for (const [i, line] of lines.entries()) {
    const twin = lines.findIndex((other) => other.version === line.version);
    if (twin !== i) throw new Error(`--node ${lines[twin]!.spec} and ${line.spec} are both Node ${line.version}: give each line once`);
  }
  return lines;
}

/**
 * A line's label in tables and charts: the exact version, without the `v`.
 *
 * @example
 * ```ts
 * nodeLabel('v26.10.0'); // 'Node 26.10.0'
 * ```
 */
export function nodeLabel(version: string): string {
  return `Node ${version.replace(/^v/, '')}`;
}
