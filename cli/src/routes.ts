import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openApiDocument, routeMap, schemaLabel, type RouteInfo } from '@hickory/dispatch';
import type { RoutesFormat } from './cli-args.ts';
import { silentLogger } from '@hickory/core/kit';
import { loadApp } from './load-app.ts';

// The `name` and `version` of the nearest package.json at or above `dir` (each when it is a
// non-empty string), or nothing when there is none: `packageOf('/srv/shop')` → `{ name: 'shop', version: '1.0.0' }`.
function packageOf(dir: string): { name?: string; version?: string } {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      let pkg: unknown;
      try {
        pkg = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        return {}; // not ours to judge: the document keeps its defaults
      }
      const { name, version } = (pkg ?? {}) as { name?: unknown; version?: unknown };
      return { name: nonEmpty(name), version: nonEmpty(version) };
    }
    if (dirname(at) === at) return {};
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * `hickory routes <config>`: loads the app (without listening) and prints every route its
 * controller tree reaches — methods, path, handler, renderings, parameters with their schemas,
 * and where routing becomes dynamic — as aligned text, as JSON with `--json`, or as an OpenAPI
 * 3.1 document with `--openapi`, whose `info` is `--title` and `--version`, else the name and
 * version of the app's package.json (the nearest one above the config file).
 *
 * @example
 * ```ts
 * await printRoutes('sandbox/config.ts', 'openapi', { title: 'Books API', version: '1.2.0' });
 * ```
 */
export async function printRoutes(config: string, format: RoutesFormat, info: { title?: string; version?: string } = {}): Promise<void> {
  const { app, file } = await loadApp(config, silentLogger);
  try {
    if (format === 'openapi') {
      const pkg = packageOf(dirname(file));
      const options = { title: info.title ?? pkg.name, version: info.version ?? pkg.version };
      process.stdout.write(`${JSON.stringify(openApiDocument(app, options), null, 2)}\n`);
      return;
    }
    const routes = routeMap(app.root!, app.config);
    process.stdout.write(format === 'json' ? `${JSON.stringify(routes, null, 2)}\n` : formatRoutes(routes));
  } finally {
    await app.close();
  }
}

/**
 * The route map as aligned text, one route a line.
 *
 * @example
 * ```ts
 * formatRoutes(routeMap(root)); // 'ANY  /show  Root.show  json  (id: integer)  body: object\n…'
 * ```
 */
export function formatRoutes(routes: readonly RouteInfo[]): string {
  const rows = routes.map((r) => [
    r.methods.join(','),
    r.path,
    r.handler,
    r.dynamic ? `(${r.dynamic} decides)` : r.renders.join(' | '),
    `(${r.params.map((p) => withSchema(p, r)).join(', ')})${r.body ? `  body: ${schemaLabel(r.body)}` : ''}${r.secured ? '  secured' : ''}${annotationText(r)}`,
  ]);
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]!.length))) ?? [];
  return rows.map((row) => `${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`).join('');
}

// What plugins marked (`hooks: TransactionHook`, `transactional`): a true flag by its name, a list joined.
function annotationText(route: RouteInfo): string {
  const marks = Object.entries(route.annotations ?? {}).map(([key, value]) =>
    value === true ? key : `${key}: ${Array.isArray(value) ? value.join(',') : String(value)}`,
  );
  return marks.length > 0 ? `  ${marks.join('  ')}` : '';
}

// `id: integer` for a parameter with a schema (a rest parameter's key has no dots).
function withSchema(param: string, route: RouteInfo): string {
  const name = param.startsWith('...') ? param.slice(3) : param;
  const schema = route.schemas && Object.prototype.hasOwnProperty.call(route.schemas, name) ? route.schemas[name] : undefined;
  return schema === undefined ? param : `${param}: ${schemaLabel(schema)}`;
}
