// docs/deployment.md's "Several machines" setup, run for real: two `hickory serve --workers 2`
// instances of the showcase on one throwaway PostgreSQL, behind Debian's nginx with the guide's
// configuration (only the addresses changed). A few hundred concurrent writes and reads go through
// nginx; one instance is killed with SIGKILL mid-load. Every write is then checked against the
// database: a 2xx/3xx from the app is stored exactly once, an error status from the app never; a
// request nginx had to cut off (502, the instance died under it) is stored at most once. The other
// instance keeps serving, and an admin session made before the kill still opens /admin/.
// Skipped where nginx or PostgreSQL is missing, outside CI.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { freePort, REPO, serveFixture, type Running } from './fixtures/cli/harness.ts';
import { machinesConfig, nginxMissing, startNginx, type RunningNginx } from './fixtures/proxy/nginx.ts';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';

const skip = nginxMissing() ?? postgresSkipReason();
const PASSWORD = 'two-instances';
const WRITES = 300;
const READS = 200;
const CONCURRENCY = 40;

let dir = '';
let cluster: Cluster | undefined;
const instances: Running[] = [];
let nginx: RunningNginx | undefined;
let port = 0;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

// One request through nginx on a fresh connection; a connection error is status 0.
function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, agent: false, timeout: 15_000, headers: { host: 'books.example.com', accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) }), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', () => resolve({ status: 0, headers: {}, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    req.end(body);
  });
}

before(async () => {
  if (skip) return;
  dir = await mkdtemp(join(tmpdir(), 'hickory-instances-'));
  cluster = await startCluster('showcase');
  const env = { DATABASE_URL: cluster.url, HICKORY_ADMIN_PASSWORD: PASSWORD, NODE_ENV: 'test' };
  const appPorts: [number, number] = [await freePort(), await freePort()];
  for (const appPort of appPorts) {
    const served = await serveFixture(['sandbox/config.ts', '--host', '127.0.0.1', '--port', String(appPort), '--workers', '2'], REPO, undefined, env);
    instances.push(served.cli);
  }
  port = await freePort();
  const guide = await readFile(join(REPO, 'docs/deployment.md'), 'utf8');
  nginx = await startNginx(dir, machinesConfig(guide, { appPorts, httpPort: port }), [port], 1024);
});

after(async () => {
  await nginx?.stop();
  for (const instance of instances) instance.stop();
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('two instances on one PostgreSQL behind nginx: one killed mid-load, every answer agrees with the database', { skip, timeout: 180_000 }, async (t) => {
  // An admin session, made through nginx before the load.
  const login = await send('POST', '/admin/login', `password=${PASSWORD}`, { accept: 'text/html' });
  assert.equal(login.status, 302, `login: ${login.status} ${login.body}\n${await nginx!.log()}`);
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  assert.equal((await send('GET', '/admin/', undefined, { cookie, accept: 'text/html' })).status, 200);

  const writes: Array<{ name: string; answer: Answer }> = [];
  const reads: Answer[] = [];
  // Writes and reads interleaved through the run.
  const jobs: Array<() => Promise<void>> = [];
  for (let i = 0; i < WRITES; i++) {
    const name = `w-${i}`;
    jobs.push(async () => void writes.push({ name, answer: await send('POST', '/books/', `name=${name}`) }));
    if (i < READS) jobs.push(async () => void reads.push(await send('GET', '/books/')));
  }
  let next = 0;
  let killed = false;
  const killAt = Math.floor(jobs.length * 0.4);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const index = next++;
        if (index >= killAt && !killed) {
          killed = true;
          // The whole instance: its primary and both workers, no goodbye.
          process.kill(-instances[0]!.child.pid!, 'SIGKILL');
        }
        await jobs[index]!();
      }
    }),
  );
  assert.equal(killed, true);

  const db = new pg.Client({ connectionString: cluster!.url });
  await db.connect();
  try {
    const rows = (await db.query<{ name: string; n: string }>("SELECT name, count(*) AS n FROM books WHERE name LIKE 'w-%' GROUP BY name")).rows;
    const stored = new Map(rows.map((row) => [row.name, Number(row.n)]));
    let committed = 0;
    let refused = 0;
    let cutOff = 0;
    for (const { name, answer } of writes) {
      // The app's own answers carry its request id; nginx's 502 for a dead upstream does not.
      const fromApp = answer.headers['x-request-id'] !== undefined;
      if (fromApp && answer.status >= 200 && answer.status < 400) {
        committed++;
        assert.equal(stored.get(name), 1, `${name} answered ${answer.status}: stored exactly once`);
      } else if (fromApp) {
        refused++;
        assert.equal(stored.get(name), undefined, `${name} answered ${answer.status} by the app: nothing stored`);
      } else {
        cutOff++;
        assert.ok((stored.get(name) ?? 0) <= 1, `${name} cut off (${answer.status}): stored at most once`);
      }
    }
    assert.equal(writes.length, WRITES);
    const cutStored = writes.filter(({ name, answer }) => answer.headers['x-request-id'] === undefined && stored.has(name)).length;
    t.diagnostic(`writes: ${committed} committed and stored once, ${refused} refused by the app and not stored, ${cutOff} cut off by the kill (${cutStored} of them stored: committed just before it)`);
    assert.ok(committed >= WRITES / 2, `most writes went through (${committed} committed, ${refused} refused, ${cutOff} cut off)`);
    // Nothing stored that no write asked for.
    assert.deepEqual([...stored.keys()].filter((name) => !writes.some((w) => w.name === name)), []);
  } finally {
    await db.end();
  }
  assert.ok(reads.filter((r) => r.status === 200).length >= READS / 2, 'reads kept being answered');

  // The survivor serves alone now: pages, and the admin session made before the kill.
  for (let i = 0; i < 4; i++) {
    assert.equal((await send('GET', '/books/')).status, 200);
    assert.equal((await send('GET', '/admin/', undefined, { cookie, accept: 'text/html' })).status, 200, 'the admin session survives the switch');
  }
  assert.equal(instances[1]!.child.exitCode, null, 'the other instance is still running');
});
