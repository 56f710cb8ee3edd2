import type { StandardSchemaV1 } from '@standard-schema/spec';

/** A validation issue as a client receives it: JSON-safe, whatever the schema library put in it. */
export interface PlainIssue {
  readonly message: string;
  readonly path: ReadonlyArray<string | number>;
}

/**
 * Reduces Standard Schema issues to `{ message, path }`, with `prefix` (the parameter's name)
 * first in each path. Only these two fields are kept: libraries add the rejected input and
 * internal details, which may be large or not JSON (a symbol key, a BigInt).
 *
 * @example
 * ```ts
 * plainIssues([{ message: 'Expected number', path: [{ key: 'page' }] }], ['query']);
 * // [{ message: 'Expected number', path: ['query', 'page'] }]
 * ```
 */
export function plainIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>, prefix: ReadonlyArray<string | number>): PlainIssue[] {
  return issues.map((issue) => ({
    message: typeof issue.message === 'string' ? issue.message : String(issue.message),
    path: [...prefix, ...(issue.path ?? []).map(pathKey)],
  }));
}

function pathKey(segment: PropertyKey | StandardSchemaV1.PathSegment): string | number {
  const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
  return typeof key === 'number' ? key : String(key);
}
