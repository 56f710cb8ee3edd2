// The quick loop for the per-request hot path, without the kernel's network stack: each framework's
// benchmark server is started in this process, and requests are handed to its `http.Server` as
// real `IncomingMessage`/`ServerResponse` pairs on a socket that discards what it is given. What is
// left is each framework's JavaScript (and Node's own HTTP code it calls), in nanoseconds per
// request, with rounds interleaved so that a busy machine slows every server alike. On a socket the
// kernel's write adds the same ~10 µs to every server: this measures the part that differs.
//
//   npm run bench:in-process -- [--frameworks hickory-schema,fastify,node] [--routes hello,rest]
//     [--rounds 7] [--requests 50000] [--write]   (--write: the table into benchmarks/README.md)
// It builds the packages' dist and the servers first (`tsc -b benchmarks`), as users run them, then
// runs `node benchmarks/dist/benchmarks/in-process.js`: run that with another Node for another line.
import { readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sendRequests, serverOf } from './in-process-server.ts';
import { nodeLabel } from './node-lines.ts';
import { replaceBetweenMarkers } from './report.ts';
import { ROUTE_PATHS, ROUTE_TITLES, type RouteName } from './routes.ts';
import { VARIANTS, type VariantName } from './servers/variants.ts';

// benchmarks/README.md, from this file or from its compiled twin under benchmarks/dist/benchmarks/.
const README = fileURLToPath(new URL(import.meta.url.includes('/benchmarks/dist/') ? '../../README.md' : './README.md', import.meta.url));

async function round(server: Server, path: string, requests: number): Promise<number> {
  const started = process.hrtime.bigint();
  await sendRequests(server, path, requests);
  return Number(process.hrtime.bigint() - started) / requests;
}

// The median and the lowest and highest of a list of rounds.
function spread(list: readonly number[]): { median: number; low: number; high: number } {
  const sorted = [...list].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, low: sorted[0]!, high: sorted[sorted.length - 1]! };
}

async function measureRoute(servers: Map<VariantName, Server>, path: string, rounds: number, requests: number): Promise<Map<VariantName, number[]>> {
  const times = new Map<VariantName, number[]>([...servers.keys()].map((name) => [name, []]));
  for (const [, server] of servers) await round(server, path, requests);
  for (let i = 0; i < rounds; i++) {
    for (const [name, server] of servers) times.get(name)!.push(await round(server, path, requests));
  }
  return times;
}

// One Markdown table per Node line: ns per request by route, and the ratio to fastify's in the same run.
function table(names: readonly VariantName[], routes: readonly RouteName[], results: ReadonlyMap<RouteName, Map<VariantName, number[]>>, settings: string): string {
  const fastify = (route: RouteName) => spread(results.get(route)!.get('fastify') ?? []).median;
  const cell = (route: RouteName, name: VariantName) => {
    const { median, low, high } = spread(results.get(route)!.get(name)!);
    const ratio = names.includes('fastify') && name !== 'fastify' ? ` · ${(median / fastify(route)).toFixed(2)}×` : '';
    return `${median.toFixed(0)}${ratio}<br><sub>${low.toFixed(0)}–${high.toFixed(0)}</sub>`;
  };
  return [
    `Run of ${new Date().toISOString().slice(0, 10)} on ${nodeLabel(process.version)}: \`${settings}\``,
    '',
    `| server | ${routes.map((route) => `${ROUTE_TITLES[route]}<br>ns per request`).join(' | ')} |`,
    `|---|${routes.map(() => '---:').join('|')}|`,
    ...names.map((name) => `| ${VARIANTS[name].title} | ${routes.map((route) => cell(route, name)).join(' | ')} |`),
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      frameworks: { type: 'string', default: 'hickory-app-schema,hickory-schema,hickory-app,hickory,fastify,node' },
      routes: { type: 'string', default: 'hello,depth8,rest' },
      rounds: { type: 'string', default: '7' },
      requests: { type: 'string', default: '50000' },
      // Keep the table in benchmarks/README.md (one block per Node line).
      write: { type: 'boolean', default: false },
    },
  });
  const names = values.frameworks.split(',') as VariantName[];
  const routes = values.routes.split(',') as RouteName[];
  for (const route of routes) if (!(route in ROUTE_PATHS) || route === 'page') throw new Error(`--routes: ${route} is not one of hello, depth8, rest`);
  const rounds = Number(values.rounds);
  const requests = Number(values.requests);
  // As the servers of `npm run bench` run (servers/spawn.ts): what is checked only in development is not measured.
  process.env['NODE_ENV'] = 'production';
  const servers = new Map<VariantName, Server>();
  for (const name of names) servers.set(name, await serverOf(name));
  const results = new Map<RouteName, Map<VariantName, number[]>>();
  for (const route of routes) {
    results.set(route, await measureRoute(servers, ROUTE_PATHS[route], rounds, requests));
    console.log(`${ROUTE_PATHS[route]}: ${names.map((name) => `${name} ${spread(results.get(route)!.get(name)!).median.toFixed(0)} ns`).join(', ')}`);
  }
  const settings = `npm run bench:in-process -- --frameworks ${names.join(',')} --routes ${routes.join(',')} --rounds ${rounds} --requests ${requests}`;
  const block = table(names, routes, results, settings);
  console.log(`\n${block}`);
  if (values.write) {
    const major = process.versions.node.split('.')[0]!;
    const markers = {
      start: `<!-- in-process-node${major}:start (written by benchmarks/in-process.ts; do not edit by hand) -->`,
      end: `<!-- in-process-node${major}:end -->`,
      heading: `In process, Node ${major}`,
    };
    await writeFile(README, replaceBetweenMarkers(await readFile(README, 'utf8'), block, markers));
    console.log(`\nwrote the table in ${README}`);
  }
  process.exit(0);
}

await main();
