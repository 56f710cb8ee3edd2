// Checks that a server answers a route with the exact expected body (status 200).
import { request } from 'node:http';
import { ROUTE_PATHS, type RouteName } from '../routes.ts';

/**
 * Requests `route` once on 127.0.0.1:`port`; gives back what is wrong, or `undefined` when the
 * answer is a 200 with exactly `expected` as its body.
 *
 * @example
 * ```ts
 * const problem = await checkRoute(port, 'hello', '{"hello":"world"}');
 * ```
 */
export function checkRoute(port: number, route: RouteName, expected: string, timeoutMs = 5000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: ROUTE_PATHS[route], method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200 && body === expected) resolve(undefined);
        else resolve(`GET ${ROUTE_PATHS[route]} answered ${res.statusCode} ${JSON.stringify(body.slice(0, 80))}, expected 200 ${JSON.stringify(expected.slice(0, 80))}`);
      });
      res.on('error', (error) => resolve(`GET ${ROUTE_PATHS[route]}: ${error.message}`));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve(`GET ${ROUTE_PATHS[route]}: ${error.message}`));
    req.end();
  });
}
