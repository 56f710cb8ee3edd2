// A 100 MiB download over 127.0.0.1 whose body is `response.app_iter` (a file stream), read by a
// slow client (about 40 MiB/s, by pausing the socket), through Hickory and through a bare
// node:http server piping the same file. Each server runs in its own child process so that its
// RSS is its own (measured from a warm baseline, after one full-speed download, with a full GC every
// 250 ms so that it shows what the server holds rather than garbage not yet collected); then paired
// full-speed rounds give the throughput ratio.
//
//   node --conditions=source --import tsx benchmarks/download.ts [MiB] [rounds]
import { fork } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { reportRss, type RssStats } from './rss-child.ts';

const MiB = 1024 * 1024;
type Kind = 'hickory' | 'node';
const KINDS: readonly Kind[] = ['node', 'hickory'];

if (process.argv[2] === 'server') await serve(process.argv[3] as Kind, process.argv[4]!);
else await main();

async function serve(kind: Kind, file: string): Promise<void> {
  let port: number;
  if (kind === 'hickory') {
    const { createKernel, definePlugin, Response, contentDisposition } = await import('@hickory/core');
    const download = definePlugin({
      name: 'bench-download',
      apply(kernel) {
        kernel.hooks.route.tap('bench-download', () => ({
          target: 'download',
          handle: () =>
            new Response({
              app_iter: createReadStream(file),
              headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': contentDisposition('big.bin') },
            }),
        }));
      },
    });
    const kernel = createKernel({ logger: false }).use(download);
    const { server } = await kernel.listen({ port: 0, host: '127.0.0.1' });
    port = (server.address() as { port: number }).port;
  } else {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="big.bin"' });
      pipeline(createReadStream(file), res).catch(() => {});
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as { port: number }).port;
  }
  reportRss(port, { gcEveryMs: 250 });
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 100) * MiB;
  const rounds = Number(process.argv[3] ?? 5);
  const dir = await mkdtemp(join(tmpdir(), 'hickory-bench-download-'));
  const file = join(dir, 'big.bin');
  await writeFile(file, Buffer.alloc(size, 'D'));
  const self = fileURLToPath(import.meta.url);
  const servers = new Map<Kind, { child: ReturnType<typeof fork>; port: number }>();
  for (const kind of KINDS) {
    const child = fork(self, ['server', kind, file], { execArgv: [...process.execArgv, '--expose-gc'] });
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    servers.set(kind, { child, port });
  }
  const ask = <T>(child: ReturnType<typeof fork>, message: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(message);
    });
  const fullSpeed = async (kind: Kind): Promise<number> => {
    const started = performance.now();
    const got = await download(servers.get(kind)!.port, Infinity);
    if (got < size) throw new Error(`${kind}: got ${got} bytes`);
    return size / MiB / ((performance.now() - started) / 1000);
  };
  // A warm-up download each: code paths, buffers, the page cache.
  for (const kind of KINDS) await fullSpeed(kind);
  // The slow reader first, after one warm-up download each: RSS growth from a warm baseline (later
  // downloads leave the allocator in a state that makes the number wander).
  const slow: Partial<Record<Kind, { growth: number; seconds: number }>> = {};
  for (const kind of KINDS) {
    const { child, port } = servers.get(kind)!;
    await ask(child, 'start');
    const started = performance.now();
    const got = await download(port, 40 * MiB);
    const seconds = (performance.now() - started) / 1000;
    const stats = await ask<RssStats>(child, 'stop');
    if (got < size) throw new Error(`${kind}: got ${got} bytes`);
    slow[kind] = { growth: (stats.peak - stats.baseline) / MiB, seconds };
  }
  // Full speed: rounds in which the two run back to back, in alternating order; the ratio is the
  // median of the paired ratios.
  const mibs: Record<Kind, number[]> = { node: [], hickory: [] };
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const pair: Partial<Record<Kind, number>> = {};
    for (const kind of round % 2 ? [...KINDS].reverse() : KINDS) mibs[kind].push((pair[kind] = await fullSpeed(kind)));
    ratios.push(pair.hickory! / pair.node!);
  }
  for (const { child } of servers.values()) child.send('exit');
  await rm(dir, { recursive: true, force: true });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`\n${size / MiB} MiB download over 127.0.0.1: a slow reader (~40 MiB/s, RSS growth from a warm baseline), and full speed (${rounds} paired rounds)\n`);
  console.log('| server | slow reader: RSS growth (MiB) | slow reader: seconds | full speed: MiB/s (median) |');
  console.log('|---|---:|---:|---:|');
  for (const kind of KINDS) {
    const name = kind === 'node' ? 'node:http + pipeline(file, res)' : 'Hickory, app_iter = file stream';
    console.log(`| ${name} | ${slow[kind]!.growth.toFixed(1)} | ${slow[kind]!.seconds.toFixed(2)} | ${median(mibs[kind]).toFixed(0)} |`);
  }
  const growth = slow.hickory!.growth;
  console.log(`\nfull-speed throughput ratio Hickory / node:http: ${median(ratios).toFixed(2)}× (per round ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(`Hickory RSS growth with a slow reader: ${growth.toFixed(1)} MiB (target < 32 MiB)`);
  if (growth >= 32) process.exitCode = 1;
}

// Reads the response at about `rate` bytes/s (pausing the socket between 10 ms slices).
function download(port: number, rate: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    let bytes = 0;
    let budget = rate / 100;
    const refill = Number.isFinite(rate)
      ? setInterval(() => {
          budget = rate / 100;
          socket.resume();
        }, 10)
      : undefined;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      budget -= chunk.length;
      if (budget <= 0) socket.pause();
    });
    socket.on('close', () => {
      clearInterval(refill);
      resolve(bytes);
    });
    socket.on('error', reject);
  });
}
