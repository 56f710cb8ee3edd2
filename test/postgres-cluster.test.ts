// The throwaway PostgreSQL cluster of test/postgres-cluster.ts: it answers on 127.0.0.1 only, in a
// database of its own, and stop() leaves no server process and no folder behind.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, test } from 'node:test';
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
    assert.equal(existsSync(`${tmpdir()}/${folders[0]}`), false, 'its folder is removed');
    const refused = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 2000 });
    await assert.rejects(refused.connect(), { code: 'ECONNREFUSED' });
  });
});
