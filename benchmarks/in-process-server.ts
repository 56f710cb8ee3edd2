// Serving requests in process: a benchmark server started in this process, and requests handed
// to its `http.Server` as real `IncomingMessage`/`ServerResponse` pairs on sockets that discard
// what they are given (no kernel, no parser). Used by the timed loop (`in-process.ts`) and by the
// instruction count in process (`instructions/in-process-child.ts`).
import { AsyncResource } from 'node:async_hooks';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
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
const FLAGS = ['hickoryBenchApp', 'hickoryBenchExplicit', 'hickoryBenchSchema', 'hickoryBenchHooks', 'hickoryBenchLogger', 'hickoryBenchLoadApp', 'fastifyBenchEtag'];

/**
 * Starts the benchmark server of variant `name` in this process (its preload first, its module
 * loaded afresh) and returns the `http.Server` it made. Run from `benchmarks/dist/` (the servers'
 * compiled twins import the packages' dist).
 *
 * @example
 * ```ts
 * const server = await serverOf('hickory-schema');
 * ```
 */
export async function serverOf(name: VariantName): Promise<Server> {
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

/**
 * Sends `requests` GET requests for `path` to `server`, 16 at a time (each on its own discarding
 * socket), and throws if any is answered with another status than 200.
 *
 * @example
 * ```ts
 * await sendRequests(server, '/hello', 10_000);
 * ```
 */
export async function sendRequests(server: Server, path: string, requests: number): Promise<void> {
  const sockets = Array.from({ length: 16 }, discardingSocket);
  for (let sent = 0; sent < requests; sent += sockets.length) {
    const statuses = await Promise.all(sockets.map((socket) => one(server, path, socket)));
    if (statuses.some((status) => status !== 200)) throw new Error(`${path}: answered ${statuses.join(', ')}`);
  }
}
