// What `npm publish` would put in each package: the compiled code, never the compiled tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Packed {
  name: string;
  files: Array<{ path: string }>;
}

test('every published package holds its dist/index.js and no compiled test or test fixture', async () => {
  // `tsc -b` (npm test's pretest) has built dist/, so the list is the one a release would have.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--workspaces', '--ignore-scripts'], { cwd: root, maxBuffer: 32 * 1024 * 1024 });
  const packed = (JSON.parse(stdout) as Packed[]).filter((p) => (p.name.startsWith('@hickory/') || p.name === 'create-hickory') && p.name !== '@hickory/sandbox');
  assert.ok(packed.length >= 10, `expected the kernel, the plugins, the app, the CLI and create-hickory, got ${packed.map((p) => p.name).join(', ')}`);
  for (const { name, files } of packed) {
    const paths = files.map((f) => f.path);
    const entry = name === 'create-hickory' ? 'bin/create-hickory.mjs' : 'dist/index.js';
    assert.ok(paths.includes(entry), `${name} has no ${entry}`);
    assert.deepEqual(paths.filter((p) => /\.test\.|(^|\/)fixtures\//.test(p)), [], `${name} would publish test files`);
    assert.deepEqual(paths.filter((p) => p.endsWith('.tsbuildinfo')), [], `${name} would publish its build info`);
    // Every file an export condition names is in the tarball (a consumer's own `source` condition included).
    const manifest = JSON.parse(await readFile(join(root, paths.includes('bin/create-hickory.mjs') ? 'create-hickory' : packageDir(name), 'package.json'), 'utf8')) as { exports?: Record<string, unknown> };
    for (const target of exportTargets(manifest.exports)) assert.ok(paths.includes(target.replace(/^\.\//, '')), `${name} exports ${target}, which it would not publish`);
  }
});

function packageDir(name: string): string {
  const short = name.replace('@hickory/', '');
  return ['core', 'app', 'cli', 'sandbox'].includes(short) ? short : `plugins/${short}`;
}

function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (typeof exports !== 'object' || exports === null) return [];
  return Object.values(exports).flatMap(exportTargets);
}

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

// Ranges held narrower on purpose, with the reason.
const NARROW: Record<string, string> = {
  // 6.8 depends on cookie 2: ESM only and Node 22+, so no import without require(esm) on Node 20.
  'light-my-request': '~6.6.0',
};
const ENGINES = ['ejs', 'handlebars', 'nunjucks'];

test('published packages take third-party dependencies as caret ranges (the lockfile pins them), their own at the same version', async () => {
  const dirs = ['core', 'app', 'cli', 'create-hickory', ...['dispatch', 'ejs', 'handlebars', 'hooks', 'multipart', 'nunjucks', 'renderer', 'rest', 'static', 'compress'].map((p) => `plugins/${p}`)];
  for (const dir of dirs) {
    const pkg = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8')) as Manifest;
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies })) {
      if (name.startsWith('@hickory/')) assert.equal(range, '0.1.0', `${pkg.name} → ${name}`);
      else assert.equal(range, NARROW[name] ?? range.replace(/^(?!\^)/, '^'), `${pkg.name} → ${name}: a caret range, so that users get its fixes`);
    }
    // A template engine is the app's to install, when it has templates of that kind.
    for (const engine of ENGINES) assert.equal(pkg.dependencies?.[engine], undefined, `${pkg.name} depends on ${engine}`);
  }
  const app = JSON.parse(await readFile(join(root, 'app', 'package.json'), 'utf8')) as Manifest;
  for (const [dir, engines] of [['app', ENGINES], ...ENGINES.map((e) => [`plugins/${e}`, [e]] as const)] as const) {
    const pkg = dir === 'app' ? app : (JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8')) as Manifest);
    for (const engine of engines) {
      assert.match(pkg.peerDependencies?.[engine] ?? '', /^\^\d/, `${pkg.name}: ${engine} as a peer`);
      assert.equal(pkg.peerDependenciesMeta?.[engine]?.optional, true, `${pkg.name}: ${engine} optional`);
    }
  }
});
