// The quick loop for the per-request hot path: Hickory (kernel + dispatch) against fastify 5 and raw
// node:http over real HTTP, each server in its own child process on 127.0.0.1, loaded by autocannon
// (100 connections, pipelining 10). Rounds interleave the servers; the median of the rounds is shown.
// Run: node --conditions=source --import tsx benchmarks/hot-path.ts [--rounds 3] [--duration 5] [--route hello|depth8]
// A server alone (for profiling with --cpu-prof): … benchmarks/hot-path.ts --serve hickory --port 3000
// Before/after in one run: --baseline <dir> adds `base`, the Hickory of another copy of the repository
// (its benchmarks/hot-path.ts serves it).
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

type ServerName = 'hickory' | 'fastify' | 'node' | 'base';
type RouteName = 'hello' | 'depth8';

const DEEP_PATH = '/a/b/c/d/e/f/g/h';
const PATHS: Record<RouteName, string> = { hello: '/hello', depth8: DEEP_PATH };
const EXPECTED: Record<RouteName, string> = { hello: '{"hello":"world"}', depth8: 'leaf' };
// Raw node:http answers /hello only: it is the ceiling the hello route is compared with.
const PEERS: Record<RouteName, ServerName[]> = { hello: ['hickory', 'fastify', 'node'], depth8: ['hickory', 'fastify'] };

const { values: options } = parseArgs({
  options: {
    serve: { type: 'string' },
    port: { type: 'string', default: '0' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '100' },
    pipelining: { type: 'string', default: '10' },
    route: { type: 'string', multiple: true },
    baseline: { type: 'string' },
  },
});
if (options.baseline) for (const list of Object.values(PEERS)) list.unshift('base');

async function startHickory(port: number): Promise<number> {
  const { createKernel } = await import('@hickory/core');
  const { dispatchPlugin, expose } = await import('@hickory/dispatch');
  class Leaf {
    @expose() h() {
      return 'leaf';
    }
  }
  // /a/b/c/d/e/f/g/h: seven nested controllers, then the exposed method `h`.
  let deep: object = new Leaf();
  for (const name of ['g', 'f', 'e', 'd', 'c', 'b']) deep = { [name]: deep };
  class Root {
    a = deep;
    @expose('json') hello() {
      return { hello: 'world' };
    }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  const { server } = await app.listen({ port, host: '127.0.0.1' });
  return (server.address() as AddressInfo).port;
}

async function startFastify(port: number): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  const schema = { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } };
  app.get('/hello', { schema }, async () => ({ hello: 'world' }));
  app.get(DEEP_PATH, async (_request, reply) => reply.type('text/html; charset=utf-8').send('leaf'));
  await app.listen({ port, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

async function startNode(port: number): Promise<number> {
  const server = createServer((req, res) => {
    if (req.url === '/hello') {
      const body = JSON.stringify({ hello: 'world' });
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'Content-Length': '0' }).end();
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

const STARTERS: Record<ServerName, (port: number) => Promise<number>> = { hickory: startHickory, fastify: startFastify, node: startNode, base: startHickory };

async function serve(name: ServerName): Promise<void> {
  const port = await STARTERS[name](Number(options.port));
  if (process.send) {
    // The parent asks for the CPU time used so far, to report the server's CPU per request.
    process.on('message', () => {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
    });
    process.send({ port });
  } else console.log(`${name} listening on http://127.0.0.1:${port}`);
  // Exit on SIGTERM/SIGINT through process.exit so that --cpu-prof writes its profile.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
}

interface Child {
  process: ChildProcess;
  port: number;
}

function spawnServer(name: ServerName): Promise<Child> {
  const script = name === 'base' ? `${options.baseline}/benchmarks/hot-path.ts` : fileURLToPath(import.meta.url);
  const child = fork(script, ['--serve', name === 'base' ? 'hickory' : name], {
    cwd: name === 'base' ? options.baseline : undefined,
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ process: child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
  });
}

interface Sample {
  requests: number;
  p99: number;
  errors: number;
  /** Server CPU time (user + system) per request, in µs: steadier than req/s on a busy machine. */
  cpu: number;
}

function cpuOf(child: Child): Promise<number> {
  return new Promise((resolve) => {
    child.process.once('message', (message: { cpu: number }) => resolve(message.cpu));
    child.process.send('cpu');
  });
}

async function load(child: Child, path: string, seconds: number): Promise<Sample> {
  const before = await cpuOf(child);
  const result = await autocannon({
    url: `http://127.0.0.1:${child.port}${path}`,
    connections: Number(options.connections),
    pipelining: Number(options.pipelining),
    duration: seconds,
  });
  const cpu = (await cpuOf(child)) - before;
  return {
    requests: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    cpu: cpu / Math.max(1, result.requests.total),
  };
}

async function check(port: number, route: RouteName, name: ServerName): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${PATHS[route]}`);
  const text = await response.text();
  if (response.status !== 200 || text !== EXPECTED[route]) throw new Error(`${name} ${PATHS[route]} answered ${response.status} ${text}`);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const routes = (options.route ?? ['hello', 'depth8']) as RouteName[];
  const rounds = Number(options.rounds);
  const names = [...new Set(routes.flatMap((route) => PEERS[route]))];
  const children = new Map<ServerName, Child>();
  try {
    for (const name of names) children.set(name, await spawnServer(name));
    for (const route of routes) for (const name of PEERS[route]) await check(children.get(name)!.port, route, name);
    for (const route of routes) for (const name of PEERS[route]) await load(children.get(name)!, PATHS[route], Number(options.warmup));
    const samples = new Map<string, Sample[]>();
    for (let round = 0; round < rounds; round++) {
      for (const route of routes) {
        // Alternate the order each round so that no server always runs first.
        const order = round % 2 === 0 ? PEERS[route] : [...PEERS[route]].reverse();
        for (const name of order) {
          const sample = await load(children.get(name)!, PATHS[route], Number(options.duration));
          const key = `${route} ${name}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
          process.stderr.write(`round ${round + 1}/${rounds} ${key}: ${sample.requests.toFixed(0)} req/s, p99 ${sample.p99} ms, ${sample.cpu.toFixed(1)} µs CPU/req\n`);
        }
      }
    }
    console.log(`\nhot path over HTTP (node ${process.version}, ${options.connections} connections, pipelining ${options.pipelining}, median of ${rounds} × ${options.duration} s; client and servers share the cores)`);
    console.log('route   | server  |    req/s | p99 ms | errors | vs fastify | vs node:http | server µs CPU/req | CPU vs fastify');
    for (const route of routes) {
      const stat = (name: ServerName) => {
        const list = samples.get(`${route} ${name}`)!;
        return {
          rps: median(list.map((s) => s.requests)),
          p99: median(list.map((s) => s.p99)),
          errors: list.reduce((n, s) => n + s.errors, 0),
          cpu: median(list.map((s) => s.cpu)),
        };
      };
      const fastify = stat('fastify').rps;
      const fastifyCpu = stat('fastify').cpu;
      const node = PEERS[route].includes('node') ? stat('node').rps : undefined;
      for (const name of PEERS[route]) {
        const { rps, p99, errors, cpu } = stat(name);
        const vsNode = node === undefined ? '' : `${(rps / node).toFixed(2)}×`;
        console.log(
          `${route.padEnd(7)} | ${name.padEnd(7)} | ${rps.toFixed(0).padStart(8)} | ${String(p99).padStart(6)} | ${String(errors).padStart(6)} | ${`${(rps / fastify).toFixed(2)}×`.padStart(10)} | ${vsNode.padStart(12)} | ${cpu.toFixed(2).padStart(17)} | ${`${(cpu / fastifyCpu).toFixed(2)}×`.padStart(14)}`,
        );
      }
    }
  } finally {
    for (const child of children.values()) child.process.kill('SIGTERM');
  }
}

if (options.serve) await serve(options.serve as ServerName);
else await main();
