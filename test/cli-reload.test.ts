// `hickory serve --reload`: a change to the app's controller is served after a restart; a syntax error
// saved mid-edit stops nothing but that server (the next save starts it again); --watch and --ignore.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { freePort, get, REPO, serveFixture } from './fixtures/cli/harness.ts';

const controller = (text: string) => `import { expose } from '@hickory/dispatch';
export class Root {
  @expose()
  index() {
    return ${JSON.stringify(text)};
  }
}
`;

async function bodyBecomes(url: string, want: string, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    try {
      last = (await get(url, 2_000)).body;
      if (last === want) return last;
    } catch (error) {
      last = String(error); // the server is restarting
    }
    await sleep(100);
  }
  return last;
}

test('hickory serve --reload restarts when a controller changes, survives a syntax error, and follows --watch and --ignore', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-cli-reload-'));
  try {
    await reloads(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

async function reloads(dir: string): Promise<void> {
  // The app imports @hickory/dispatch; a link to the repository's node_modules resolves it
  // (and is ignored by the watcher).
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(join(dir, 'config.json'), JSON.stringify({ server: { host: '127.0.0.1' }, app: { root: './root.ts#Root' } }));
  await writeFile(join(dir, 'root.ts'), controller('first version'));
  const port = await freePort();
  await mkdir(join(dir, 'scratch'));
  const { cli, url } = await serveFixture([join(dir, 'config.json'), '--reload', '--port', String(port), '--watch', '*.yaml', '--ignore', 'scratch'], dir);
  const restarts = () => cli.stdout().match(/changed: restarting/g)?.length ?? 0;
  try {
    assert.equal(url, `http://127.0.0.1:${port}`);
    assert.deepEqual(await get(`${url}/`), { status: 200, body: 'first version' });
    await writeFile(join(dir, 'root.ts'), controller('second version'));
    await cli.waitFor(/root\.ts changed: restarting/, 10_000, 'stdout');
    assert.equal(await bodyBecomes(`${url}/`, 'second version', 15_000), 'second version');

    // Saved mid-edit: that server fails to start, the command goes on and the next save serves.
    await writeFile(join(dir, 'root.ts'), 'export class Root { index( {');
    await cli.waitFor(/the server stopped \(exit code 1\); waiting for a change/, 15_000);
    assert.equal(cli.child.exitCode, null, 'the reloader is still running');
    await writeFile(join(dir, 'root.ts'), controller('third version'));
    assert.equal(await bodyBecomes(`${url}/`, 'third version', 15_000), 'third version');
    assert.equal(restarts(), 3, cli.stdout());

    // --ignore: a folder whose files never restart; --watch: another extension that does.
    await writeFile(join(dir, 'scratch', 'draft.ts'), 'export {};');
    await writeFile(join(dir, 'notes.md'), 'not watched');
    await sleep(1_000);
    assert.equal(restarts(), 3, cli.stdout());
    await writeFile(join(dir, 'routes.yaml'), 'a: 1');
    await cli.waitFor(/routes\.yaml changed: restarting/, 10_000, 'stdout');
    assert.equal(await bodyBecomes(`${url}/`, 'third version', 15_000), 'third version');
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited(10_000), 0);
  } finally {
    cli.stop();
  }
}

test('hickory serve --reload names the file an app rewrites each time it starts, and how to ignore it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-cli-reload-self-'));
  try {
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(join(dir, 'config.json'), JSON.stringify({ server: { host: '127.0.0.1' }, app: { root: './root.ts#Root' } }));
    // A JSON "database" written at start, as small apps do.
    await writeFile(join(dir, 'root.ts'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('./store.json', import.meta.url), JSON.stringify({ started: Date.now() }));\n${controller('writes its store')}`);
    const { cli } = await serveFixture([join(dir, 'config.json'), '--reload', '--port', String(await freePort())], dir);
    try {
      await cli.waitFor(/store\.json changes each time the server starts: if the app writes it, pass --ignore 'store\.json'/, 20_000);
    } finally {
      cli.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
