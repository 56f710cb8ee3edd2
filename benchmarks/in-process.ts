// The quick loop for the per-request hot path, without the kernel's network stack: each framework's
// benchmark server is started in this process, and requests are handed to its `http.Server` as
// real `IncomingMessage`/`ServerResponse` pairs on a socket that discards what it is given. What is
// left is each framework's JavaScript (and Node's own HTTP code it calls), in nanoseconds per
// request, with rounds interleaved so that a busy machine slows every server alike. On a socket the
// kernel's write adds the same ~10 µs to every server: this measures the part that differs.
//
//   npm run bench:in-process -- [--frameworks hickory,hickory-app,fastify,node] [--route hello]
//     [--rounds 7] [--requests 20000]
// It builds the packages' dist and the servers first (`tsc -b benchmarks`), as users run them, then
// runs `node benchmarks/dist/benchmarks/in-process.js`: run that with another Node for another line.
import { AsyncResource } from 'node:async_hooks';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import { parseArgs } from 'node:util';
import { ROUTE_PATHS, type RouteName } from './routes.ts';
import { VARIANTS, type Variant, type VariantName } from './servers/variants.ts';

// The async context sockets' callbacks run in (the one their server was made in): Node enters it
// for each callback and gives the caller's back afterwards.
const SOCKET_CONTEXT = new AsyncResource('in-process-socket');

// A socket that takes every write at once and keeps nothing.
function discardingSocket(): Duplex {
  const socket = new Duplex({
    read() {},
    write(_chunk, _encoding, done) {
      done();
    },
    writev(_chunks, done) {
      done();
    },
  });
  return socket;
}

// What the preloads of servers/ set (servers/hooks-variant.ts reads them): cleared before each
// variant, whose own preload then runs here, and whose server module is loaded afresh (a query
// in its URL), since some variants are decided when the module is evaluated.
const FLAGS = ['hickoryBenchApp', 'hickoryBenchExplicit', 'hickoryBenchSchema', 'hickoryBenchHooks', 'hickoryBenchLogger', 'hickoryBenchLoadApp'];

async function serverOf(name: VariantName): Promise<Server> {
  const variant: Variant = VARIANTS[name];
  const before = new Set(listening());
  for (const flag of FLAGS) delete (globalThis as Record<string, unknown>)[flag];
  if (variant.preload !== undefined) await import(new URL(`./servers/${variant.preload}.js?${name}`, import.meta.url).href);
  const module = (await import(new URL(`./servers/${variant.framework}.js?${name}`, import.meta.url).href)) as { start(): Promise<unknown> };
  await module.start();
  const server = listening().find((handle) => !before.has(handle));
  if (server === undefined) throw new Error(`${name}: no new http.Server is listening`);
  return server;
}

function listening(): Server[] {
  return (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((handle): handle is Server => handle instanceof Server);
}

// One request through the server's 'request' listeners; settles once the response has ended.
function one(server: Server, path: string, socket: Duplex): Promise<number> {
  const req = new IncomingMessage(socket as never);
  req.method = 'GET';
  req.url = path;
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  req.headers = { host: '127.0.0.1:8080', 'user-agent': 'in-process', accept: '*/*' };
  req.rawHeaders = ['Host', '127.0.0.1:8080', 'User-Agent', 'in-process', 'Accept', '*/*'];
  req.complete = true;
  req.push(null);
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(socket as never);
  return new Promise((resolve) => {
    res.on('finish', () => {
      res.detachSocket(socket as never);
      resolve(res.statusCode);
    });
    // As Node calls a socket's callback: in the context the server was made in, given back after.
    SOCKET_CONTEXT.runInAsyncScope(() => server.emit('request', req, res));
  });
}

async function round(server: Server, path: string, requests: number): Promise<number> {
  const sockets = Array.from({ length: 16 }, discardingSocket);
  const started = process.hrtime.bigint();
  for (let sent = 0; sent < requests; sent += sockets.length) {
    const statuses = await Promise.all(sockets.map((socket) => one(server, path, socket)));
    if (statuses.some((status) => status !== 200)) throw new Error(`${path}: answered ${statuses.join(', ')}`);
  }
  return Number(process.hrtime.bigint() - started) / requests;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      frameworks: { type: 'string', default: 'hickory,hickory-app,fastify,node' },
      route: { type: 'string', default: 'hello' },
      rounds: { type: 'string', default: '7' },
      requests: { type: 'string', default: '20000' },
    },
  });
  const names = values.frameworks.split(',') as VariantName[];
  const path = ROUTE_PATHS[values.route as RouteName];
  // As the servers of `npm run bench` run (servers/spawn.ts): what is checked only in development is not measured.
  process.env['NODE_ENV'] = 'production';
  const servers = new Map<VariantName, Server>();
  for (const name of names) servers.set(name, await serverOf(name));
  const times = new Map<VariantName, number[]>(names.map((name) => [name, []]));
  const requests = Number(values.requests);
  for (const [, server] of servers) await round(server, path, requests);
  for (let i = 0; i < Number(values.rounds); i++) {
    for (const [name, server] of servers) times.get(name)!.push(await round(server, path, requests));
  }
  const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const base = median(times.get(names.includes('fastify') ? 'fastify' : names[0]!)!);
  console.log(`${path} on Node ${process.version}, ${values.rounds} interleaved rounds of ${requests} requests, in-process (no socket)`);
  for (const name of names) {
    const list = times.get(name)!;
    const ns = median(list);
    console.log(`  ${name.padEnd(20)} ${ns.toFixed(0).padStart(6)} ns/request  (${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)})  ${(ns / base).toFixed(2)}×`);
  }
  process.exit(0);
}

await main();
