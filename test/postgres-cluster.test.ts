// The throwaway PostgreSQL cluster of test/postgres-cluster.ts: it answers on 127.0.0.1 only, in a
// database of its own, and neither stop() nor the death of the process that started it (even by
// SIGKILL) leaves a server process or a folder behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { postgresSkipReason, startCluster } from './postgres-cluster.ts';

// A process that ended but was not yet reaped by its new parent (a zombie) counts as gone.
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

// Processes whose command line names `text` (the cluster's folder: its server and its watchdog).
function processesNaming(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text) && alive(Number(name))) found.push(Number(name));
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

async function gone(folder: string, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) {
    if (processesNaming(folder).length === 0 && !existsSync(folder)) return true;
  }
  return false;
}

const clusterFolders = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('hickory-pg-')));

describe('a throwaway PostgreSQL cluster', { skip: postgresSkipReason() }, () => {
  test('starts on 127.0.0.1 with its own database, answers SELECT 1, and stop() leaves nothing running', { timeout: 120_000 }, async () => {
    const before = clusterFolders();
    const cluster = await startCluster('books_test');
    const url = new URL(cluster.url);
    assert.equal(url.protocol, 'postgres:');
    assert.equal(url.hostname, '127.0.0.1');
    assert.equal(url.pathname, '/books_test');
    const folders = [...clusterFolders()].filter((name) => !before.has(name));
    assert.equal(folders.length, 1, 'one new folder under the temporary directory');
    const folder = join(tmpdir(), folders[0]!);
    assert.equal(alive(cluster.pid), true);
    const client = new pg.Client({ connectionString: cluster.url });
    try {
      await client.connect();
      assert.deepEqual((await client.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
      assert.deepEqual((await client.query('SELECT current_database() AS name')).rows, [{ name: 'books_test' }]);
      // Loopback only: the server was told to listen on nothing else.
      assert.deepEqual((await client.query('SHOW listen_addresses')).rows, [{ listen_addresses: '127.0.0.1' }]);
    } finally {
      await client.end();
    }
    await cluster.stop();
    await cluster.stop();
    assert.equal(alive(cluster.pid), false, 'the server process is gone');
    assert.equal(existsSync(folder), false, 'its folder is removed');
    // Its watchdog ends by itself once the folder is gone.
    assert.equal(await gone(folder, 3000), true, `still running: ${processesNaming(folder).join(', ')}`);
    const refused = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 2000 });
    await assert.rejects(refused.connect(), { code: 'ECONNREFUSED' });
  });

  test('a process killed with SIGKILL leaves no cluster behind: its watchdog stops the server and removes the folder', { timeout: 120_000 }, async () => {
    const script = `import { startCluster } from ${JSON.stringify(new URL('./postgres-cluster.ts', import.meta.url).href)};
const cluster = await startCluster();
console.log(JSON.stringify({ pid: cluster.pid, url: cluster.url }));
setInterval(() => {}, 1000);`;
    const before = clusterFolders();
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error('the child started no cluster within 60 s')), 60_000);
        child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) (clearTimeout(timer), resolve(out.trim()));
        });
        child.once('exit', () => (clearTimeout(timer), reject(new Error(`the child exited: ${out}`))));
      });
      const { pid } = JSON.parse(line) as { pid: number };
      const folders = [...clusterFolders()].filter((name) => !before.has(name));
      assert.equal(folders.length, 1);
      const folder = join(tmpdir(), folders[0]!);
      assert.equal(alive(pid), true);
      child.kill('SIGKILL');
      assert.equal(await gone(folder, 15_000), true, `still there 15 s after SIGKILL: ${processesNaming(folder).join(', ')}`);
      assert.equal(alive(pid), false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
