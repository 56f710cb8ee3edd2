// The showcase's `/openapi.json` (openapiPlugin), against what the CLI says of the same app: the
// very document `hickory routes --openapi` prints (but its info), valid OpenAPI 3.1, and listing
// every route `hickory routes` lists: each route's methods at its path (or the path its leading
// arguments extend), and each route decided per request under `x-hickory-dynamic`. Issue #38: the
// page at /docs showed 10 of its operations; the document was never short of any (see
// test/browser/openapi.test.ts for the page).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Kernel } from '@hickory/core';
import { createSandbox } from '@hickory/sandbox/app';
import { REPO, start } from './fixtures/cli/harness.ts';

interface RouteRow {
  path: string;
  methods: string[];
  handler: string;
  params: string[];
  dynamic?: string;
}
interface Document {
  info: unknown;
  paths: Record<string, Record<string, { summary: string }>>;
  'x-hickory-dynamic'?: Array<{ path: string; handler: string; decides: string }>;
}

// The CLI loads the showcase's config, which opens its database: one in memory.
async function cli(...args: string[]): Promise<string> {
  const run = start(['routes', 'sandbox/config.ts', ...args], REPO, undefined, { HICKORY_SANDBOX_DB: ':memory:', DATABASE_URL: '' });
  try {
    const code = await run.exited(30_000);
    assert.equal(code, 0, run.stderr());
    return run.stdout();
  } finally {
    run.stop();
  }
}

// A route's operations as the document names them: every method a handler answers (`ANY`) is
// the five OpenAPI documents (HEAD mirrors GET, OPTIONS is the framework's); else its methods
// but those two.
function routeOperations(row: RouteRow): string[] {
  const methods = row.methods[0] === 'ANY' ? ['get', 'post', 'put', 'patch', 'delete'] : row.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').map((m) => m.toLowerCase());
  return methods.map((method) => `${method} ${row.path}`);
}

// The route an operation of the document comes from: the one at its path that answers its method,
// else the one whose path its leading arguments extend (`/files/download/{id}` is
// `/files/download` with its `id` as a segment).
function routeOf(rows: readonly RouteRow[], path: string, method: string): RouteRow | undefined {
  const answers = (row: RouteRow) => row.dynamic === undefined && routeOperations(row).includes(`${method} ${row.path}`);
  const exact = rows.filter((row) => row.path === path && answers(row));
  if (exact.length > 0) return exact.length === 1 ? exact[0] : undefined;
  const extended = rows.filter((row) => {
    if (!answers(row) || !path.startsWith(`${row.path}/`)) return false;
    const segments = path.slice(row.path.length + 1).split('/');
    return segments.every((segment) => /^\{\w+\}$/.test(segment) && row.params.includes(segment.slice(1, -1)));
  });
  return extended.length === 1 ? extended[0] : undefined;
}

let app: Kernel;
let served: Document;

before(async () => {
  app = await createSandbox({ logger: false });
  const res = await app.inject('/openapi.json');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  served = res.json() as Document;
});

after(async () => {
  await app?.close();
});

test("the showcase's /openapi.json is valid OpenAPI 3.1 and the document `hickory routes --openapi` prints", async () => {
  const validator = new Validator();
  const result = await validator.validate(served as unknown as Record<string, unknown>);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  assert.equal(validator.version, '3.1');
  assert.deepEqual(served.info, { title: 'Hickory sandbox', version: '0.1.0' });
  const printed = JSON.parse(await cli('--openapi')) as Document;
  assert.deepEqual({ ...served, info: undefined }, { ...printed, info: undefined });
});

test("the showcase's /openapi.json lists exactly the routes `hickory routes` lists, each with all its methods", async () => {
  const rows = JSON.parse(await cli('--json')) as RouteRow[];
  assert.ok(rows.length >= 50, `${rows.length} routes`);
  const expected = rows.filter((row) => row.dynamic === undefined).flatMap(routeOperations).sort();
  const documented: string[] = [];
  const strays: string[] = [];
  for (const [path, operations] of Object.entries(served.paths)) {
    for (const method of Object.keys(operations)) {
      const row = routeOf(rows, path, method);
      if (row === undefined) strays.push(`${method} ${path}`);
      else documented.push(`${method} ${row.path}`);
    }
  }
  assert.deepEqual(strays, [], 'operations of no route');
  assert.deepEqual(documented.sort(), expected);
  // Routes decided per request are named, with the handler that decides.
  assert.deepEqual(
    served['x-hickory-dynamic'],
    rows.filter((row) => row.dynamic !== undefined).map((row) => ({ path: row.path, handler: row.handler, decides: row.dynamic })),
  );
  // Every path the CLI lists is in the document one way or the other.
  const paths = new Set([...Object.keys(served.paths), ...(served['x-hickory-dynamic'] ?? []).map((entry) => entry.path)]);
  for (const row of rows) {
    assert.ok(paths.has(row.path) || [...paths].some((path) => path.startsWith(`${row.path}/{`)), row.path);
  }
});
