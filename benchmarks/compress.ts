// A 64 KB JSON answer compressed by @hickory/compress and by @fastify/compress, in the same run:
// requests/s under wrk and the bytes of one response on the wire (status line, headers and body),
// for `Accept-Encoding: br` and `gzip`. Both servers send the same pre-serialized document (this
// compares compression, not serializers), each in its own process pinned to core 0
// (`taskset -c 0`, NODE_ENV=production), wrk pinned to core 1; rounds alternate the order of the
// servers. Hickory runs as `createKernel()` with dispatch and `compressPlugin`, its defaults on
// (a weak ETag is computed for the answer, which fastify without @fastify/etag does not do).
//
//   npm run bench:compress -- [--rounds 3] [--duration 5] [--connections 32] [--write]
//   (--write: the table into benchmarks/README.md)
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parseWrkOutput, wrkCommand, wrkVersion, type WrkSettings } from './http/wrk.ts';
import { replaceBetweenMarkers } from './report.ts';

type Server = 'hickory' | 'fastify';
type Coding = 'br' | 'gzip';
const SERVERS: readonly Server[] = ['hickory', 'fastify'];
const CODINGS: readonly Coding[] = ['br', 'gzip'];
const README = fileURLToPath(new URL('./README.md', import.meta.url));
const MARKERS = {
  start: '<!-- compress:start (written by benchmarks/compress.ts; do not edit by hand) -->',
  end: '<!-- compress:end -->',
  heading: 'Compression',
};

// About 64 KiB of JSON, the same bytes every time.
function document(): string {
  const items: unknown[] = [];
  let text = '[]';
  for (let i = 0; text.length < 64 * 1024; i++) {
    items.push({ id: i, title: `Book ${i}`, author: `Author ${i % 97}`, year: 1900 + (i % 125), tags: ['fiction', i % 2 === 0 ? 'classic' : 'new'], available: i % 3 !== 0 });
    text = JSON.stringify(items);
  }
  return text;
}

if (process.argv[2] === 'server') await serve(process.argv[3] as Server);
else await main();

async function serve(kind: Server): Promise<void> {
  const payload = document();
  let port: number;
  if (kind === 'hickory') {
    const { compressPlugin, createKernel, dispatchPlugin, expose } = await import('@hickory/app');
    class Root {
      @expose({ content_type: 'application/json' })
      data(): string {
        return payload;
      }
    }
    const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(compressPlugin);
    const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(url).port);
  } else {
    const { default: Fastify } = await import('fastify');
    const { default: fastifyCompress } = await import('@fastify/compress');
    const app = Fastify({ logger: false });
    await app.register(fastifyCompress);
    app.get('/data', (_request, reply) => reply.type('application/json').send(payload));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  }
  process.stdout.write(`${port}\n`);
}

async function start(kind: Server): Promise<{ child: ChildProcess; url: string }> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn('taskset', ['-c', '0', process.execPath, ...process.execArgv, self, 'server', kind], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code})`)));
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return { child, url: `http://127.0.0.1:${port}/data` };
}

// wrk as the suite runs it (benchmarks/http/wrk.ts), with an Accept-Encoding header.
async function load(url: string, settings: WrkSettings, coding: Coding): Promise<ReturnType<typeof parseWrkOutput>> {
  const command = wrkCommand(url, settings);
  command.splice(-1, 0, '-H', `Accept-Encoding: ${coding}`);
  const { stdout } = await promisify(execFile)(command[0]!, command.slice(1), { timeout: (settings.duration + 30) * 1000 });
  return parseWrkOutput(stdout);
}

// One response on a fresh connection: every byte the socket read, and the decoded check.
function wireBytes(url: string, coding: Coding): Promise<{ bytes: number; body: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers: { 'accept-encoding': coding } }, (res) => {
      let body = 0;
      res.on('data', (chunk: Buffer) => (body += chunk.length));
      res.on('end', () => resolve({ bytes: res.socket.bytesRead, body, encoding: res.headers['content-encoding'] }));
    })
      .on('error', reject)
      .end();
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '3' }, duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '32' }, write: { type: 'boolean', default: false } },
  });
  if (wrkVersion() === undefined) throw new Error('wrk is missing: apt-get install wrk');
  const rounds = Number(values.rounds);
  const settings = { connections: Number(values.connections), threads: 1, duration: Number(values.duration), cores: [1] };
  const servers = new Map<Server, { child: ChildProcess; url: string }>();
  for (const kind of SERVERS) servers.set(kind, await start(kind));
  // The run's own process waits on wrk's core, away from the servers'.
  spawn('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
  const rps = new Map<string, number[]>();
  const bytes = new Map<string, { bytes: number; body: number }>();
  try {
    for (const kind of SERVERS) {
      for (const coding of CODINGS) {
        const one = await wireBytes(servers.get(kind)!.url, coding);
        if (one.encoding !== coding) throw new Error(`${kind} answered ${coding} with Content-Encoding ${String(one.encoding)}`);
        bytes.set(`${kind} ${coding}`, one);
        // Warm-up.
        await load(servers.get(kind)!.url, { ...settings, duration: 2 }, coding);
      }
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
      for (const coding of CODINGS) {
        for (const kind of order) {
          const sample = await load(servers.get(kind)!.url, settings, coding);
          if (sample.failures > 0) throw new Error(`${kind} ${coding}: ${sample.failures} failed requests`);
          const key = `${kind} ${coding}`;
          rps.set(key, [...(rps.get(key) ?? []), sample.rps]);
          console.log(`round ${round + 1}: ${key} ${Math.round(sample.rps)} req/s`);
        }
      }
    }
  } finally {
    for (const { child } of servers.values()) child.kill();
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const lines = [
    `Run of ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node}: \`npm run bench:compress -- --rounds ${rounds} --duration ${settings.duration} --connections ${settings.connections}\` (servers on core 0, wrk on core 1)`,
    '',
    '| server | Accept-Encoding | requests/s (median; lowest–highest) | bytes of one response on the wire (of which body) |',
    '|---|---|---:|---:|',
  ];
  for (const coding of CODINGS) {
    for (const kind of SERVERS) {
      const list = rps.get(`${kind} ${coding}`)!;
      const ratio = kind === 'hickory' ? ` · ${(median(list) / median(rps.get(`fastify ${coding}`)!)).toFixed(2)}×` : '';
      const name = kind === 'hickory' ? 'hickory, `createKernel()` + `compressPlugin`' : 'fastify 5 + `@fastify/compress`';
      lines.push(`| ${name} | ${coding} | ${Math.round(median(list))}${ratio}<br><sub>${Math.round(Math.min(...list))}–${Math.round(Math.max(...list))}</sub> | ${bytes.get(`${kind} ${coding}`)!.bytes} (${bytes.get(`${kind} ${coding}`)!.body}) |`);
    }
  }
  lines.push('', `The document: ${Buffer.byteLength(document())} bytes of JSON.`);
  const table = lines.join('\n');
  console.log(`\n${table}`);
  if (values.write) await writeFile(README, replaceBetweenMarkers(await readFile(README, 'utf8'), table, MARKERS));
}
