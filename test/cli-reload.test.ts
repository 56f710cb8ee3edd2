// `hickory serve --reload`: a change to the app's controller is served after a restart.
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
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

test('hickory serve --reload restarts when a controller changes and serves the new text', async () => {
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
  const { cli, url } = await serveFixture([join(dir, 'config.json'), '--reload', '--port', String(port)], dir);
  try {
    assert.equal(url, `http://127.0.0.1:${port}`);
    assert.deepEqual(await get(`${url}/`), { status: 200, body: 'first version' });
    await writeFile(join(dir, 'root.ts'), controller('second version'));
    await cli.waitFor(/root\.ts changed: restarting/, 10_000, 'stdout');
    assert.equal(await bodyBecomes(`${url}/`, 'second version', 15_000), 'second version');
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited(10_000), 0);
  } finally {
    cli.stop();
  }
}
