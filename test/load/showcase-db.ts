// The showcase's own pages under load, on each database it runs on (issue #28): `GET /books/` and
// `POST /books/` (a real insert, committed per request) on SQLite, on PostgreSQL, and on two
// instances behind nginx sharing one PostgreSQL. The servers (and nginx) are pinned to core 0 with
// taskset, Debian's wrk to core 1: keep-alive, no pipelining. Each setup gets a fresh database.
// Run: npm run bench:showcase -- [--seconds 5] [--rounds 3] [--connections 16]
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, REPO } from '../fixtures/cli/harness.ts';
import { machinesConfig, nginxMissing, startNginx } from '../fixtures/proxy/nginx.ts';
import { postgresSkipReason, startCluster } from '../postgres-cluster.ts';

const run = promisify(execFile);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const SECONDS = option('seconds', 5);
const ROUNDS = option('rounds', 3);
const CONNECTIONS = option('connections', 16);

interface Measured {
  readonly rps: number;
  readonly p99ms: number;
}

// wrk's summary: "Requests/sec: 1234.56" and, with --latency, the "99%" line of the distribution.
function parseWrk(output: string): Measured {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(output);
  if (!rps || !p99) throw new Error(`cannot read wrk's output:\n${output}`);
  const scale = p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1;
  return { rps: Number(rps[1]), p99ms: Number(p99[1]) * scale };
}

async function wrk(url: string, script: string | undefined): Promise<Measured> {
  const args = ['-c', '1', 'wrk', '-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-H', 'Accept: application/json', ...(script ? ['-s', script] : []), url];
  const { stdout } = await run('taskset', args, { timeout: (SECONDS + 30) * 1000 });
  return parseWrk(stdout);
}

// One `hickory serve` of the showcase on core 0, ready once it prints its URL.
async function serve(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('taskset', ['-c', '0', process.execPath, 'cli/bin/hickory.mjs', 'serve', 'sandbox/config.ts', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', HICKORY_ADMIN_PASSWORD: 'bench', HICKORY_SESSION_SECRET: 'bench-session-secret-of-32-characters-or-more', ...env },
  });
  let out = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the showcase did not start:\n${out}`)), 30_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const found = /hickory serving (http:\/\/\S+)/.exec(chunk);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
  });
  // The request log is not what is measured: read and dropped.
  child.stdout!.resume();
  return { url, child };
}

function stop(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // gone
  }
}

interface Setup {
  readonly name: string;
  start(): Promise<{ url: string; stop(): Promise<void> }>;
}

const dir = await mkdtemp(join(tmpdir(), 'hickory-showcase-bench-'));
const postScript = join(dir, 'post.lua');
await writeFile(postScript, 'wrk.method = "POST"\nwrk.body = "name=bench"\nwrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\n');

const setups: Setup[] = [
  {
    name: 'SQLite, one instance',
    async start() {
      const file = join(dir, `books-${Date.now()}.sqlite`);
      const one = await serve({ HICKORY_SANDBOX_DB: file });
      return { url: one.url, stop: async () => stop(one.child) };
    },
  },
];
const noPostgres = postgresSkipReason() ?? (existsSync('/usr/bin/taskset') ? undefined : 'taskset is missing');
const cluster = noPostgres === undefined ? await startCluster('bench') : undefined;
let databases = 0;
async function freshDatabase(): Promise<string> {
  const name = `bench_${++databases}`;
  const admin = new pg.Client({ connectionString: cluster!.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return cluster!.url.replace(/\/[^/]*$/, `/${name}`);
}
if (cluster) {
  setups.push({
    name: 'PostgreSQL, one instance',
    async start() {
      const one = await serve({ DATABASE_URL: await freshDatabase() });
      return { url: one.url, stop: async () => stop(one.child) };
    },
  });
  if (nginxMissing() === undefined) {
    setups.push({
      name: 'PostgreSQL, two instances behind nginx',
      async start() {
        const url = await freshDatabase();
        const a = await serve({ DATABASE_URL: url });
        const b = await serve({ DATABASE_URL: url });
        const port = await freePort();
        const guide = await readFile(join(REPO, 'docs/deployment.md'), 'utf8');
        const http = machinesConfig(guide, { appPorts: [Number(new URL(a.url).port), Number(new URL(b.url).port)], httpPort: port });
        const nginxDir = await mkdtemp(join(dir, 'nginx-'));
        const nginx = await startNginx(nginxDir, http, [port], 1024);
        return {
          url: `http://127.0.0.1:${port}`,
          stop: async () => {
            await nginx.stop();
            stop(a.child);
            stop(b.child);
          },
        };
      },
    });
  }
}

console.log(`showcase under wrk: ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds per route; servers on core 0, wrk on core 1; Node ${process.version}`);
if (noPostgres) console.log(`PostgreSQL setups left out: ${noPostgres}`);
const rows: string[] = ['| setup | `GET /books/` req/s | p99 | `POST /books/` req/s | p99 |', '|---|--:|--:|--:|--:|'];
try {
  for (const setup of setups) {
    const running = await setup.start();
    try {
      const gets: Measured[] = [];
      const posts: Measured[] = [];
      await wrk(`${running.url}/books/`, undefined); // warm-up
      // Every read first: the writes grow the list a read returns.
      for (let round = 0; round < ROUNDS; round++) gets.push(await wrk(`${running.url}/books/`, undefined));
      for (let round = 0; round < ROUNDS; round++) posts.push(await wrk(`${running.url}/books/`, postScript));
      const spread = (list: Measured[]) => `${Math.round(Math.min(...list.map((m) => m.rps)))}–${Math.round(Math.max(...list.map((m) => m.rps)))}`;
      const row = `| ${setup.name} | ${Math.round(median(gets.map((m) => m.rps)))} (${spread(gets)}) | ${median(gets.map((m) => m.p99ms)).toFixed(1)} ms | ${Math.round(median(posts.map((m) => m.rps)))} (${spread(posts)}) | ${median(posts.map((m) => m.p99ms)).toFixed(1)} ms |`;
      rows.push(row);
      console.log(row);
    } finally {
      await running.stop();
    }
  }
} finally {
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
}
console.log(`\n${rows.join('\n')}`);
