// Hickory as users install it: every public package packed, `create-hickory` installed from its
// tarball outside the repository, a project made with each template and installed with plain
// `npm install` (nothing linked to the checkout; the npm registry supplies the third-party
// dependencies, `overrides` stand for a registry that has the @hickory tarballs), then its
// `npm test`, its type-check with skipLibCheck false and exactOptionalPropertyTypes, and its
// `npm start` — with a third-party plugin package whose header shows on a 200, a 404 and a 500;
// and its `npm run dev` on a SQLite file in the project: serves, and reloads on a source edit only.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort, get, REPO, start } from './fixtures/cli/harness.ts';

const exec = promisify(execFile);
// npm and tsc children: no test-runner context, no preloaded tsx, output in a pipe.
const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...ENV } = process.env;
const NPM_TIMEOUT = 240_000;

let dir = '';
let overrides: Record<string, string> = {};

async function npm(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('npm', [...args, '--no-audit', '--no-fund'], { cwd, timeout: NPM_TIMEOUT, env: ENV, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-installed-'));
  const packs = join(dir, 'packs');
  await mkdir(packs);
  // `npm test` ran `tsc -b` first, so every package's dist/ is what a release would publish.
  await exec('npm', ['pack', '--workspaces', '--pack-destination', packs, '--silent'], { cwd: REPO, timeout: NPM_TIMEOUT, env: ENV });
  for (const file of await readdir(packs)) {
    const name = file === 'create-hickory-0.1.0.tgz' ? 'create-hickory' : `@hickory/${file.replace(/^hickory-/, '').replace(/-0\.1\.0\.tgz$/, '')}`;
    if (name !== '@hickory/sandbox') overrides[name] = `file:${join(packs, file)}`;
  }
  // A third-party plugin, published on its own: a peer dependency on the kernel, plain JavaScript.
  const plugin = join(dir, 'hickory-plugin-request-id');
  await mkdir(plugin);
  await writeFile(
    join(plugin, 'package.json'),
    JSON.stringify({ name: 'hickory-plugin-request-id', version: '1.0.0', type: 'module', main: 'index.js', types: 'index.d.ts', peerDependencies: { '@hickory/core': '^0.1.0' } }),
  );
  await writeFile(
    join(plugin, 'index.js'),
    `import { definePlugin } from '@hickory/core';
export const requestId = definePlugin({
  name: 'request-id',
  apply(kernel) {
    kernel.hooks.beforeRoute.tap('request-id', (request, response) => {
      response.headers['X-Request-Id'] = 'rid-1';
      if (request.path === '/boom') throw new Error('the plugin fails on purpose');
    });
  },
});
`,
  );
  await writeFile(join(plugin, 'index.d.ts'), `import type { Plugin } from '@hickory/core';\nexport declare const requestId: Plugin<undefined>;\n`);
  // Packed like any npm package (a file: folder would be linked, and resolve its peers from here).
  await exec('npm', ['pack', '--pack-destination', packs, '--silent'], { cwd: plugin, timeout: NPM_TIMEOUT, env: ENV });
  const tool = join(dir, 'tool');
  await mkdir(tool);
  await writeFile(join(tool, 'package.json'), JSON.stringify({ name: 'tool', private: true, dependencies: { 'create-hickory': overrides['create-hickory'] }, overrides }));
  await npm(tool, 'install');
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

for (const template of ['base', 'rest-api']) {
  test(`create-hickory --template ${template}, installed from the tarballs: npm test, tsc, npm start`, async () => {
    const name = `from-tarballs-${template}`;
    const { stdout } = await exec(join(dir, 'tool', 'node_modules', '.bin', 'create-hickory'), [name, '--template', template], { cwd: dir, env: ENV, timeout: 30_000 });
    assert.match(stdout, new RegExp(`hickory: created ${join(dir, name)}`));
    const project = join(dir, name);
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.dependencies['@hickory/app'], '^0.1.0', 'an installed create-hickory asks for the published packages');
    pkg.dependencies['@hickory/app'] = overrides['@hickory/app'];
    pkg.dependencies['@hickory/cli'] = overrides['@hickory/cli'];
    pkg.dependencies['hickory-plugin-request-id'] = `file:${join(dir, 'packs', 'hickory-plugin-request-id-1.0.0.tgz')}`;
    pkg.overrides = overrides;
    await writeFile(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
    // The plugin goes in through the config file, as `hickory serve` builds the app from it.
    const config = await readFile(join(project, 'config.ts'), 'utf8');
    await writeFile(
      join(project, 'config.ts'),
      `import { requestId } from 'hickory-plugin-request-id';\n${config.replace('  app: {', '  app: {\n    plugins: [requestId],')}`,
    );
    await npm(project, 'install');
    const tested = await npm(project, 'test');
    assert.doesNotMatch(tested, /\bnot ok\b|✖/);
    await exec(join(project, 'node_modules', '.bin', 'tsc'), ['--skipLibCheck', 'false', '--exactOptionalPropertyTypes'], { cwd: project, env: ENV, timeout: 120_000 });

    const cli = start(['serve', 'config.ts', '--port', '0'], project, join(project, 'node_modules', '@hickory', 'cli', 'bin', 'hickory.mjs'));
    try {
      const [, url] = await cli.waitFor(/hickory serving (http:\/\/\S+)/, 30_000, 'stdout');
      for (const [path, status] of [['/', 200], ['/no/such/page', 404], ['/boom', 500]] as const) {
        const res = await fetch(`${url}${path}`);
        assert.equal(res.status, status, path);
        assert.equal(res.headers.get('x-request-id'), 'rid-1', `the plugin's header on the ${status}`);
      }
      assert.equal((await get(`${url}/`)).status, 200);
      assert.doesNotMatch(cli.stderr(), /Warning|ExperimentalWarning|DeprecationWarning|Unknown file extension/);
    } finally {
      cli.stop();
    }
  });
}

// What the generated project's `npm run dev` serves, once the page says `wanted` (or `ms` passed).
async function answerOf(url: string, wanted: string, ms: number): Promise<string> {
  let last = '';
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) {
    try {
      last = (await get(url, 2_000)).body;
      if (last.includes(wanted)) return last;
    } catch {
      // not listening yet, or restarting
    }
  }
  return last;
}

test("a create-hickory project's npm run dev, with a SQLite file in the project: serves on 127.0.0.1, reloads on a source edit only", async () => {
  const name = 'dev-on-sqlite';
  await exec(join(dir, 'tool', 'node_modules', '.bin', 'create-hickory'), [name], { cwd: dir, env: ENV, timeout: 30_000 });
  const project = join(dir, name);
  const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
  pkg.dependencies['@hickory/app'] = overrides['@hickory/app'];
  pkg.dependencies['@hickory/cli'] = overrides['@hickory/cli'];
  pkg.overrides = overrides;
  await writeFile(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
  await npm(project, 'install');
  // better-sqlite3 as the checkout built it for this Node (an install here would need its native
  // build, which npm leaves to the user's approval): its real path finds its own dependencies.
  await symlink(join(REPO, 'node_modules', 'better-sqlite3'), join(project, 'node_modules', 'better-sqlite3'), 'dir');
  // The database docs/hooks.md opens: a file next to the config, in WAL mode (-wal and -shm files),
  // opened when the app starts and written by requests.
  await writeFile(
    join(project, 'controllers', 'visits.ts'),
    `import Database from 'better-sqlite3';
import { expose } from '@hickory/app';

const db = new Database(new URL('../visits.sqlite', import.meta.url).pathname);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS visits (at TEXT)');

export class VisitsController {
  @expose('json')
  index() {
    db.prepare('INSERT INTO visits VALUES (?)').run(new Date().toISOString());
    return { visits: (db.prepare('SELECT count(*) AS n FROM visits').get() as { n: number }).n };
  }

  @expose()
  version() { return 'first'; }
}
`,
  );
  const root = await readFile(join(project, 'controllers', 'root.ts'), 'utf8');
  await writeFile(
    join(project, 'controllers', 'root.ts'),
    `import { VisitsController } from './visits.ts';\n${root.replace('export class RootController {', 'export class RootController {\n  visits = new VisitsController();\n')}`,
  );

  const port = await freePort();
  // Its own process group: npm, its shell, the reloader and the server all end with it.
  // The Node running this test runs the app too (its better-sqlite3 was built for it: CI's second
  // pass runs the tests on another Node line than the one on PATH).
  const env = { ...ENV, PATH: `${dirname(process.execPath)}${delimiter}${ENV['PATH'] ?? ''}` };
  const dev = spawn('npm', ['run', 'dev', '--', '--port', String(port)], { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  dev.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  dev.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const restarts = () => output.match(/changed: restarting/g)?.length ?? 0;
  try {
    const base = `http://127.0.0.1:${port}/visits/`;
    assert.equal(await answerOf(`${base}version`, 'first', 30_000), 'first', output);
    assert.match(output, new RegExp(`hickory serving http://127\\.0\\.0\\.1:${port}`));
    assert.equal((await get(base)).body, '{"visits":1}');
    assert.equal((await get(base)).body, '{"visits":2}');
    assert.ok((await readdir(project)).includes('visits.sqlite-wal'), 'the database writes its -wal file in the watched folder');
    // Writing the database (and its -wal/-shm files) restarts nothing.
    await sleep(1_500);
    assert.equal(restarts(), 0, output);
    // A source edit restarts it once; the database kept its rows.
    const visits = await readFile(join(project, 'controllers', 'visits.ts'), 'utf8');
    await writeFile(join(project, 'controllers', 'visits.ts'), visits.replace("return 'first';", "return 'second';"));
    assert.equal(await answerOf(`${base}version`, 'second', 30_000), 'second', output);
    assert.equal((await get(base)).body, '{"visits":3}');
    await sleep(1_500);
    assert.equal(restarts(), 1, output);
    assert.equal((await get(base)).body, '{"visits":4}');
  } finally {
    try {
      process.kill(-dev.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
