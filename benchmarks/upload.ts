// A 100 MiB multipart upload over 127.0.0.1, written to disk, through Hickory (kernel +
// multipartPlugin, the handler calling `saveTo()`) and through busboy alone in a bare node:http
// server piping the file to disk. Each server runs in its own child process so that its RSS is
// its own; the client streams the body from one reused buffer.
//
//   node --conditions=source --import tsx benchmarks/upload.ts [MiB] [rounds]
import { fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import busboy from 'busboy';
import { reportRss, type RssStats } from './rss-child.ts';

const MiB = 1024 * 1024;
const BOUNDARY = 'benchBoundary7f3a';
type Kind = 'hickory' | 'busboy';

if (process.argv[2] === 'server') await serve(process.argv[3] as Kind, process.argv[4]!);
else await main();

async function serve(kind: Kind, dir: string): Promise<void> {
  let n = 0;
  let port: number;
  if (kind === 'hickory') {
    const { createKernel, definePlugin } = await import('@hickory/core');
    const { multipartPlugin, UploadedFile } = await import('@hickory/multipart');
    const store = definePlugin({
      name: 'bench-store',
      apply(kernel) {
        kernel.hooks.route.tap('bench-store', () => ({
          target: 'store',
          async handle(req) {
            const upload = req.POST['file'];
            if (!(upload instanceof UploadedFile)) throw new Error('no file');
            await upload.saveTo(join(dir, `h-${n++}.bin`));
            return 'ok';
          },
        }));
      },
    });
    const kernel = createKernel({ logger: false }).use(store).use(multipartPlugin, { tmpdir: dir, limits: { fileSize: 1024 * MiB } });
    const { server } = await kernel.listen({ port: 0, host: '127.0.0.1' });
    port = (server.address() as { port: number }).port;
  } else {
    const server = createServer((req, res) => {
      const parser = busboy({ headers: req.headers });
      const writes: Array<Promise<void>> = [];
      parser.on('file', (_name, file) => writes.push(pipeline(file, createWriteStream(join(dir, `b-${n++}.bin`)))));
      parser.on('close', () => Promise.all(writes).then(() => res.end('ok')));
      parser.on('error', () => res.writeHead(400).end());
      req.pipe(parser);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as { port: number }).port;
  }
  reportRss(port);
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 100) * MiB;
  const rounds = Number(process.argv[3] ?? 3);
  const dir = await mkdtemp(join(tmpdir(), 'hickory-bench-upload-'));
  const self = fileURLToPath(import.meta.url);
  const results: Record<Kind, { mibs: number[]; growth: number[] }> = { hickory: { mibs: [], growth: [] }, busboy: { mibs: [], growth: [] } };
  const servers = new Map<Kind, { child: ReturnType<typeof fork>; port: number }>();
  for (const kind of ['hickory', 'busboy'] as const) {
    const child = fork(self, ['server', kind, dir], { execArgv: [...process.execArgv, '--expose-gc'] });
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    servers.set(kind, { child, port });
  }
  const ask = <T>(child: ReturnType<typeof fork>, message: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(message);
    });
  for (let round = 0; round < rounds; round++) {
    for (const kind of round % 2 === 0 ? (['hickory', 'busboy'] as const) : (['busboy', 'hickory'] as const)) {
      const { child, port } = servers.get(kind)!;
      await ask(child, 'start');
      const started = performance.now();
      await upload(port, size);
      const seconds = (performance.now() - started) / 1000;
      const stats = await ask<RssStats>(child, 'stop');
      results[kind].mibs.push(size / MiB / seconds);
      results[kind].growth.push((stats.peak - stats.baseline) / MiB);
      await rm(dir, { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
    }
  }
  for (const { child } of servers.values()) child.send('exit');
  await rm(dir, { recursive: true, force: true });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`\n${size / MiB} MiB multipart upload to disk over 127.0.0.1, ${rounds} rounds (median throughput, worst RSS growth)\n`);
  console.log('| server | MiB/s | RSS growth (MiB) |');
  console.log('|---|---:|---:|');
  for (const kind of ['busboy', 'hickory'] as const) {
    console.log(`| ${kind === 'busboy' ? 'busboy alone (node:http)' : 'Hickory + multipartPlugin'} | ${median(results[kind].mibs).toFixed(0)} | ${Math.max(...results[kind].growth).toFixed(1)} |`);
  }
  const ratio = median(results.hickory.mibs) / median(results.busboy.mibs);
  const growth = Math.max(...results.hickory.growth);
  console.log(`\nthroughput ratio Hickory / busboy: ${ratio.toFixed(2)}× (target ≥ 0.8×)`);
  console.log(`Hickory RSS growth: ${growth.toFixed(1)} MiB (target < 64 MiB)`);
  if (ratio < 0.8 || growth >= 64) process.exitCode = 1;
}

function upload(port: number, size: number): Promise<void> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 'u');
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/upload',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': head.length + size + tail.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const pump = (): void => {
      while (sent < size) {
        const piece = size - sent >= chunk.length ? chunk : chunk.subarray(0, size - sent);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}
