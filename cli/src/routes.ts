import { routeMap, type RouteInfo } from '@hickory/dispatch';
import { silentLogger } from '@hickory/core';
import { loadApp } from './load-app.ts';

/**
 * `hickory routes <config>`: loads the app (without listening) and prints every route its
 * controller tree reaches — methods, path, handler, renderings, parameters, and where routing
 * becomes dynamic — as aligned text, or as JSON with `--json`.
 *
 * @example
 * ```ts
 * await printRoutes('sandbox/config.ts', false);
 * ```
 */
export async function printRoutes(config: string, json: boolean): Promise<void> {
  const { app } = await loadApp(config, silentLogger);
  try {
    const routes = routeMap(app.root!, app.config);
    process.stdout.write(json ? `${JSON.stringify(routes, null, 2)}\n` : formatRoutes(routes));
  } finally {
    await app.close();
  }
}

/**
 * The route map as aligned text, one route a line.
 *
 * @example
 * ```ts
 * formatRoutes(routeMap(root)); // 'ANY  /  RootController.index  text/html  ()\n…'
 * ```
 */
export function formatRoutes(routes: readonly RouteInfo[]): string {
  const rows = routes.map((r) => [
    r.methods.join(','),
    r.path,
    r.handler,
    r.dynamic ? `(${r.dynamic} decides)` : r.renders.join(' | '),
    `(${r.params.join(', ')})${r.secured ? '  secured' : ''}`,
  ]);
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]!.length))) ?? [];
  return rows.map((row) => `${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`).join('');
}
