// The live page across instances, run for real: two `hickory serve sandbox/config.ts` instances on
// one throwaway PostgreSQL, behind Debian's nginx with docs/deployment.md's "Several machines"
// configuration (only the addresses changed). Event streams opened through nginx hear the books
// added on either instance (PostgreSQL's LISTEN/NOTIFY), each event as it comes (nginx does not
// buffer it: the stream is still open when it arrives); a rolled-back book reaches none.
// Skipped where nginx or PostgreSQL is missing, outside CI.
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freePort, REPO, serveFixture, type Running } from './fixtures/cli/harness.ts';
import { EventReader, type ReadEvent } from './fixtures/event-reader.ts';
import { machinesConfig, nginxMissing, startNginx, type RunningNginx } from './fixtures/proxy/nginx.ts';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';

const skip = nginxMissing() ?? postgresSkipReason();
const HOST = 'books.example.com';

const dirs: string[] = [];
let cluster: Cluster | undefined;
const instances: Array<{ cli: Running; url: string }> = [];
const proxies: RunningNginx[] = [];
let port = 0;
let guideBlock = '';
const open: IncomingMessage[] = [];

// A stream of /live/events through nginx on `viaPort`; its head, and its events as they come.
function subscribe(viaPort: number, query: string): Promise<{ res: IncomingMessage; events: EventReader }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: viaPort, path: `/live/events${query}`, agent: false, headers: { host: HOST, accept: 'text/event-stream' } }, (res) => {
      open.push(res);
      resolve({ res, events: new EventReader(res) });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no head within 10 s')));
    req.on('error', reject);
    req.end();
  });
}

async function addBook(base: string, name: string): Promise<string> {
  const res = await fetch(`${base}/books/`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ name }) });
  assert.equal(res.status, 200, `${base}: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

function bookEvent(id: string, name: string): ReadEvent {
  return { event: 'book', id, data: JSON.stringify({ id, name }) };
}

before(async () => {
  if (skip) return;
  cluster = await startCluster('live');
  const env = { DATABASE_URL: cluster.url, HICKORY_ADMIN_PASSWORD: 'live-instances', NODE_ENV: 'test' };
  const appPorts: [number, number] = [await freePort(), await freePort()];
  // One after the other: the first migrates and seeds the database.
  for (const appPort of appPorts) instances.push(await serveFixture(['sandbox/config.ts', '--host', '127.0.0.1', '--port', String(appPort)], REPO, undefined, env));
  port = await freePort();
  const guide = await readFile(join(REPO, 'docs/deployment.md'), 'utf8');
  guideBlock = machinesConfig(guide, { appPorts, httpPort: port });
  dirs.push(await mkdtemp(join(tmpdir(), 'hickory-live-nginx-')));
  proxies.push(await startNginx(dirs[0]!, guideBlock, [port]));
});

after(async () => {
  for (const res of open) res.destroy();
  for (const proxy of proxies) await proxy.stop();
  for (const { cli } of instances) {
    cli.child.kill('SIGTERM');
    await cli.exited(20_000).catch(() => undefined);
    cli.stop();
  }
  await cluster?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

test('the guide\'s block has what event streams need: HTTP/1.1 upstream, a read timeout above the heartbeat, X-Accel-Buffering obeyed', { skip }, () => {
  assert.ok(guideBlock.includes('proxy_http_version 1.1;'));
  // Keep-alive to the app for every request that is not an upgrade: the map gives them an empty Connection.
  assert.ok(guideBlock.includes('proxy_set_header Connection $connection_upgrade;'));
  assert.match(guideBlock, /map \$http_upgrade \$connection_upgrade \{\s*default upgrade;\s*''\s+"";\s*\}/);
  const timeout = /proxy_read_timeout (\d+)s;/.exec(guideBlock);
  assert.ok(timeout !== null && Number(timeout[1]) > 15, 'proxy_read_timeout above the 15 s heartbeat');
  assert.doesNotMatch(guideBlock, /^\s*proxy_ignore_headers[^\n]*X-Accel-Buffering/m);
  assert.doesNotMatch(guideBlock, /^\s*proxy_buffering on/m);
});

test('streams through nginx hear the books added on either instance, each as it comes; a rolled-back one on none', { skip, timeout: 60_000 }, async (t) => {
  // Two streams: nginx gives them to the instances in turn. Each starts after book 4, so its first
  // event (book 5, read once its LISTEN is in force) says it is listening.
  const streams = [await subscribe(port, '?after=4'), await subscribe(port, '?after=4')];
  for (const { res, events } of streams) {
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(res.headers['content-length'], undefined);
    assert.deepEqual(await events.next(10_000), bookEvent('5', 'Sense and Sensibility'));
  }
  // A book added directly on each instance: whichever instance serves a stream, one of the two
  // books came from the other one, through PostgreSQL.
  const [a, b] = instances.map((instance) => instance.url.replace(/\/$/, '')) as [string, string];
  const ghost = await fetch(`${a}/library/write_then_fail`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Ghost', redirect: 'manual' });
  assert.equal(ghost.status, 409);
  const started = Date.now();
  const onA = await addBook(a, 'Added on A');
  const fromA = await Promise.all(streams.map(({ events }) => events.next(5000)));
  const latency = Date.now() - started;
  const onB = await addBook(b, 'Added on B');
  const fromB = await Promise.all(streams.map(({ events }) => events.next(5000)));
  for (const [i, { events }] of streams.entries()) {
    assert.deepEqual(fromA[i], bookEvent(onA, 'Added on A'), `stream ${i}`);
    assert.deepEqual(fromB[i], bookEvent(onB, 'Added on B'), `stream ${i}`);
    // Unbuffered: each event came while its stream was still open (it never ends by itself).
    assert.equal(events.ended, false, `stream ${i} is still open`);
  }
  assert.deepEqual(await streams[0]!.events.during(300), [], 'no ghost, nothing twice');
  t.diagnostic(`a book added on instance A reached both streams through nginx ${latency} ms after its POST was sent`);
});
