// The showcase while ten clients stall on a download (issue #36, item 2): a download's
// transaction ends before its first byte, so readers that take nothing hold no database
// connection, and every routed page and every write (a login included) is answered at once — on a
// SQLite file in process, under `hickory serve --workers 2`, and on PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSandbox } from '@hickory/sandbox/app';
import { REPO, serveFixture } from './fixtures/cli/harness.ts';
import { postgresSkipReason, startCluster, type Cluster } from './postgres-cluster.ts';
import { send } from './showcase-load.ts';

// Larger than what the loopback's socket buffers take, under the showcase's 10 MiB upload limit.
const SIZE = 9 * 1024 * 1024;

interface Served {
  readonly base: string;
  stop(): Promise<void>;
}

async function upload(base: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(SIZE).fill(65)], { type: 'application/octet-stream' }), 'big.bin');
  const answer = await fetch(`${base}/files/`, { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(answer.status, 303, `the upload answered ${answer.status}`);
}

/**
 * A download whose reader takes nothing after the head: resolves with the socket once a 200 head
 * came, trying again (bounded) where a worker without the file answers 404.
 */
async function stalledDownload(base: string): Promise<Socket> {
  const { port } = new URL(base);
  let last = '';
  for (let attempt = 0; attempt < 40; attempt++) {
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    const head = await new Promise<string>((resolve) => {
      let text = '';
      socket.once('close', () => resolve(`closed after ${JSON.stringify(text.slice(0, 200))}`));
      socket.setEncoding('latin1').on('data', function onData(chunk: string) {
        text += chunk;
        if (!text.includes('\r\n\r\n')) return;
        socket.off('data', onData);
        // From here on nothing more is read: the kernel's and the socket's buffers fill, then the server's writes stall.
        socket.pause();
        resolve(text.slice(0, text.indexOf('\r\n')));
      });
      socket.write('GET /files/download/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
    if (head.startsWith('HTTP/1.1 200')) return socket;
    socket.destroy();
    last = head;
  }
  throw new Error(`no worker served /files/download/1 in 40 attempts; the last answer: ${last}`);
}

async function stayResponsive(base: string): Promise<void> {
  await upload(base);
  const stalled: Socket[] = [];
  try {
    for (let i = 0; i < 10; i++) stalled.push(await stalledDownload(base));
    const calls: Array<{ method?: string; path: string; form?: string }> = [
      ...Array.from({ length: 6 }, () => ({ path: '/library/' })),
      ...Array.from({ length: 3 }, (_, i) => ({ method: 'POST', path: '/library/', form: `name=Stalled+${i}` })),
      { method: 'POST', path: '/admin/login', form: 'username=nobody&password=wrong' },
    ];
    const answers = await Promise.all(calls.map((call) => send(base, call, 10_000)));
    for (const [i, answer] of answers.entries()) {
      const call = calls[i]!;
      assert.ok(answer.status < 500, `${call.method ?? 'GET'} ${call.path} answered ${answer.status} while ten downloads stalled`);
      assert.ok(answer.ms < 3_000, `${call.method ?? 'GET'} ${call.path} took ${Math.round(answer.ms)} ms while ten downloads stalled`);
    }
    const page = await send(base, { path: '/library/' });
    for (let i = 0; i < 3; i++) assert.match(page.body, new RegExp(`Stalled ${i}`), 'the writes were kept');
  } finally {
    for (const socket of stalled) socket.destroy();
  }
}

describe('the showcase while ten downloads stall', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hickory-stalled-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('in process, on a SQLite file', { timeout: 60_000 }, async () => {
    const app = await createSandbox({ logger: false, send_timeout: 60_000 }, { location: join(dir, 'in-process.sqlite') });
    const base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
    try {
      await stayResponsive(base);
    } finally {
      await app.close();
    }
  });

  test('hickory serve --workers 2, on a SQLite file', { timeout: 90_000 }, async () => {
    const { cli, url } = await serveFixture(['sandbox/config.ts', '--host', '127.0.0.1', '--port', '0', '--workers', '2'], REPO, undefined, { HICKORY_SANDBOX_DB: join(dir, 'workers.sqlite'), DATABASE_URL: '' });
    try {
      await stayResponsive(url);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited(20_000).catch(() => cli.stop());
    }
  });
});

describe('the showcase on PostgreSQL while ten downloads stall', { skip: postgresSkipReason() }, () => {
  let cluster: Cluster | undefined;
  before(async () => {
    cluster = await startCluster('stalled_downloads');
  });
  after(async () => {
    await cluster?.stop();
  });

  test('in process, on a pooled PostgreSQL', { timeout: 60_000 }, async () => {
    const app = await createSandbox({ logger: false, send_timeout: 60_000 }, { location: cluster!.url });
    const base = (await app.listen({ port: 0, host: '127.0.0.1' })).url;
    try {
      await stayResponsive(base);
    } finally {
      await app.close();
    }
  });
});
