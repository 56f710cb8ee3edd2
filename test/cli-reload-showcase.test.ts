// `hickory serve --reload` on the showcase, whose SQLite database lives under the config file's
// folder: opening and writing it (books.sqlite, -wal, -shm) never restarts the server, a change
// to a source file restarts it exactly once. The showcase is copied to a temporary folder so that
// its source can be edited.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, rm, symlink, writeFile, readdir } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { freePort, get, REPO, serveFixture, type Running } from './fixtures/cli/harness.ts';

const restarts = (cli: Running) => cli.stdout().match(/changed: restarting/g)?.length ?? 0;
const serving = (cli: Running) => cli.stdout().match(/hickory serving /g)?.length ?? 0;

async function post(url: string, form: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

async function bodyContains(url: string, text: string, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) {
    try {
      if ((await get(url, 2_000)).body.includes(text)) return true;
    } catch {
      // restarting
    }
  }
  return false;
}

test('hickory serve --reload on the showcase: its SQLite files never restart it, a source change restarts it once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-reload-showcase-'));
  let cli: Running | undefined;
  try {
    for (const part of ['config.ts', 'package.json', 'src', 'templates', 'public']) {
      await cp(join(REPO, 'sandbox', part), join(dir, part), { recursive: true, filter: (source) => !source.endsWith('.test.ts') });
    }
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await mkdir(join(dir, 'data'));
    const database = join(dir, 'data', 'books.sqlite');
    const port = await freePort();
    const env = { HICKORY_SANDBOX_DB: database, DATABASE_URL: '', NODE_ENV: 'development' };
    ({ cli } = await serveFixture([join(dir, 'config.ts'), '--reload', '--port', String(port)], dir, undefined, env));
    const url = `http://127.0.0.1:${port}`;

    // The app opened (and migrated) its database while starting: the files are there, and still nothing restarted.
    assert.equal((await get(`${url}/`)).status, 200);
    assert.ok((await readdir(join(dir, 'data'))).includes('books.sqlite'), 'the showcase opened its database under the watched folder');
    assert.equal(await post(`${url}/library/`, 'name=Written+while+watched'), 302);
    const library = await get(`${url}/library/`);
    assert.equal(library.status, 200);
    assert.match(library.body, /Written while watched/);
    // What another process (a migration, the sqlite3 shell) does to the same files.
    await writeFile(`${database}-journal`, '');
    await rm(`${database}-journal`);
    await sleep(1_500); // a restart would be announced within the watcher's 100 ms settle time
    assert.equal(restarts(cli), 0, cli.stdout());
    assert.equal(serving(cli), 1, cli.stdout());

    // A source change: one restart, and the new code is served.
    const root = join(dir, 'src', 'controllers', 'root.ts');
    await writeFile(root, (await readFile(root, 'utf8')).replace('<h1>Hickory sandbox</h1>', '<h1>Hickory sandbox, reloaded</h1>'));
    await cli.waitFor(/src\/controllers\/root\.ts changed: restarting/, 10_000, 'stdout');
    assert.ok(await bodyContains(`${url}/`, 'Hickory sandbox, reloaded', 20_000), cli.stdout());
    // The restarted server opened the same database again: still one restart, and the book is still there.
    assert.match((await get(`${url}/library/`)).body, /Written while watched/);
    await sleep(1_500);
    assert.equal(restarts(cli), 1, cli.stdout());
    assert.equal(serving(cli), 2, cli.stdout());

    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited(10_000), 0);
  } finally {
    cli?.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
