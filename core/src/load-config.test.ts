import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confdirPath } from './config.ts';
import { createKernel, definePlugin, loadConfig } from './index.ts';
import { handle } from './fixtures/harness.ts';

function fixtureDir(t: { after(fn: () => void): void }, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hickory-load-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const APP = `{ root: './controllers.ts#Root', template_path: '%(confdir)s/templates', force_canonical: false }`;
const CONTROLLERS = 'export class Root { readonly name = "root from file"; }\n';

test('loadConfig reads .js, .mjs, .ts and .json files', async (t) => {
  const dir = fixtureDir(t, {
    'controllers.ts': CONTROLLERS,
    'esm/package.json': '{ "type": "module" }',
    'esm/config.js': `export default { server: { host: '0.0.0.0', port: 8081 }, app: ${APP} };\n`,
    'config.mjs': `export const server = { port: 8082 };\nexport const app = ${APP};\n`,
    'config.ts': `import type { HickoryConfigFile } from '${join(import.meta.dirname, 'index.ts')}';\nconst config: HickoryConfigFile = { server: { host: '127.0.0.1', port: 8083 }, app: ${APP} };\nexport default config;\n`,
    'config.json': JSON.stringify({ server: { port: 8084 }, app: { root: './controllers.ts#Root', template_path: '%(confdir)s/templates', force_canonical: false } }),
    'empty.json': '{}',
  });
  const cases: Array<[string, string, number, string]> = [
    ['esm/config.js', '0.0.0.0', 8081, join(dir, 'esm')],
    ['config.mjs', '127.0.0.1', 8082, dir],
    ['config.ts', '127.0.0.1', 8083, dir],
    ['config.json', '127.0.0.1', 8084, dir],
  ];
  for (const [file, host, port, confdir] of cases) {
    const loaded = await loadConfig(join(dir, file));
    assert.deepEqual(loaded.server, { host, port }, file);
    assert.equal(loaded.app.confdir, confdir, file);
    assert.equal(loaded.app.force_canonical, false, file);
  }
  const empty = await loadConfig(join(dir, 'empty.json'));
  assert.deepEqual(empty, { server: { host: '127.0.0.1', port: 8080 }, app: { confdir: dir } });
});

test('a loaded config boots a kernel: root and %(confdir)s resolve from the file directory', async (t) => {
  const dir = fixtureDir(t, {
    'controllers.ts': CONTROLLERS,
    'config.json': JSON.stringify({ server: { port: 0 }, app: { root: './controllers.ts#Root', template_path: '%(confdir)s/templates' } }),
  });
  const { server, app: config } = await loadConfig(join(dir, 'config.json'));
  const templates = definePlugin({ name: 'templates', config: { template_path: confdirPath }, apply() {} });
  const app = createKernel({ ...config, logger: false }).use(templates).use(handle((): string => (app.root as { name: string }).name));
  const { url } = await app.listen(server);
  assert.equal(app.config.template_path, join(dir, 'templates'));
  assert.equal(await (await fetch(url)).text(), 'root from file');
  await app.close();
});

test('loadConfig errors name the file and the problem', async (t) => {
  const dir = fixtureDir(t, {
    'broken.json': '{ "app": ',
    'throws.ts': 'throw new Error("config exploded");\nexport default {};\n',
    'number.json': '42',
    'extra.json': '{ "app": {}, "routes": [] }',
    'port.json': '{ "server": { "port": 70000 } }',
    'host.json': '{ "server": { "host": "" } }',
    'prot.json': '{ "server": { "prot": 80 } }',
    'config.yaml': 'app: {}',
  });
  const cases: Array<[string, RegExp]> = [
    ['broken.json', /JSON/],
    ['throws.ts', /config exploded/],
    ['number.json', /does not export an object/],
    ['extra.json', /unknown top-level key "routes"/],
    ['port.json', /server\.port must be a port number \(got 70000\)/],
    ['host.json', /server\.host must be/],
    ['prot.json', /unknown key "server\.prot" \(server has "host" and "port"\)/],
    ['config.yaml', /\.js, \.mjs, \.ts or \.json/],
    ['missing.json', /ENOENT|no such file/],
  ];
  for (const [file, problem] of cases) {
    const path = join(dir, file);
    await assert.rejects(loadConfig(path), (e: Error & { code: string }) => {
      assert.equal(e.code, 'HICKORY_ERR_CONFIG_FILE', file);
      assert.ok(e.message.startsWith(`Cannot load the configuration file ${path}: `), e.message);
      assert.match(e.message, problem, file);
      return true;
    });
  }
});

test('a bad key inside a loaded config fails at ready() naming the key', async (t) => {
  const dir = fixtureDir(t, { 'config.json': JSON.stringify({ app: { use_context_locals: 'yes' } }) });
  const { app: config } = await loadConfig(join(dir, 'config.json'));
  const app = createKernel({ ...config, logger: false });
  await assert.rejects(app.ready(), /Configuration key "use_context_locals" must be true or false/);
  await app.close();
});
