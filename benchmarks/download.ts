// A 100 MiB download over 127.0.0.1 whose body is `response.app_iter` (a file stream), read by a
// slow client (about 40 MiB/s, by pausing the socket), through Hickory and through a bare
// node:http server piping the same file. Each server runs in its own child process so that its
// RSS is its own (measured from a warm baseline, after two full-speed downloads that also give
// the throughput ratio).
//
//   node --conditions=source --import tsx benchmarks/download.ts [MiB]
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
  reportRss(port);
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 100) * MiB;
  const dir = await mkdtemp(join(tmpdir(), 'hickory-bench-download-'));
  const file = join(dir, 'big.bin');
  await writeFile(file, Buffer.alloc(size, 'D'));
  const self = fileURLToPath(import.meta.url);
  const rows: Array<{ kind: Kind; slowGrowth: number; slowSeconds: number; fastMibs: number }> = [];
  for (const kind of ['node', 'hickory'] as const) {
    const child = fork(self, ['server', kind, file], { execArgv: [...process.execArgv, '--expose-gc'] });
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    const ask = <T>(message: string) =>
      new Promise<T>((resolve) => {
        child.once('message', (m) => resolve(m as T));
        child.send(message);
      });
    // Full speed first, twice (the first run warms up code paths and buffers), then the slow
    // reader, measured from a warm baseline.
    let fastMibs = 0;
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      await download(port, Infinity);
      fastMibs = size / MiB / ((performance.now() - started) / 1000);
    }
    await ask('start');
    const started = performance.now();
    const got = await download(port, 40 * MiB);
    const slowSeconds = (performance.now() - started) / 1000;
    const stats = await ask<RssStats>('stop');
    if (got < size) throw new Error(`${kind}: got ${got} bytes`);
    rows.push({ kind, slowGrowth: (stats.peak - stats.baseline) / MiB, slowSeconds, fastMibs });
    child.send('exit');
  }
  await rm(dir, { recursive: true, force: true });

  console.log(`\n${size / MiB} MiB download over 127.0.0.1: a slow reader (~40 MiB/s, RSS growth from a warm baseline) and full speed\n`);
  console.log('| server | slow reader: RSS growth (MiB) | slow reader: seconds | full speed: MiB/s |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows) {
    const name = row.kind === 'node' ? 'node:http + pipeline(file, res)' : 'Hickory, app_iter = file stream';
    console.log(`| ${name} | ${row.slowGrowth.toFixed(1)} | ${row.slowSeconds.toFixed(2)} | ${row.fastMibs.toFixed(0)} |`);
  }
  const hickory = rows.find((r) => r.kind === 'hickory')!;
  const node = rows.find((r) => r.kind === 'node')!;
  console.log(`\nfull-speed throughput ratio Hickory / node:http: ${(hickory.fastMibs / node.fastMibs).toFixed(2)}×`);
  console.log(`Hickory RSS growth with a slow reader: ${hickory.slowGrowth.toFixed(1)} MiB (target < 32 MiB)`);
  if (hickory.slowGrowth >= 32) process.exitCode = 1;
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
