// Every published package imports on a Node that cannot require() an ES module: Node 20 before
// 20.19 (inside `engines`), or any Node run with --no-experimental-require-module. A CommonJS
// dependency that requires an ESM-only one (light-my-request 6.8 → cookie 2) failed there with
// ERR_REQUIRE_ESM. The built packages (dist/, what users install) are imported by name.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO } from './fixtures/cli/harness.ts';

const FLAG = '--no-experimental-require-module';

async function publishedEntries(): Promise<string[]> {
  const root = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { workspaces: string[] };
  const entries: string[] = [];
  for (const pattern of root.workspaces) {
    const dirs = pattern.endsWith('/*') ? await listDirs(join(REPO, pattern.slice(0, -2))) : [join(REPO, pattern)];
    for (const dir of dirs) {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name: string; private?: boolean; exports?: Record<string, unknown> };
      if (pkg.private) continue;
      for (const key of Object.keys(pkg.exports ?? {})) if (!key.endsWith('.mjs')) entries.push(key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`);
    }
  }
  return entries;
}

async function listDirs(dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'package.json'))).map((e) => join(dir, e.name));
}

const skip = !process.allowedNodeEnvironmentFlags.has(FLAG)
  ? `this Node (${process.version}) has no ${FLAG}`
  : !existsSync(join(REPO, 'core', 'dist', 'index.js'))
    ? 'the packages are not built: run tsc -b (npm test does)'
    : false;

test(`every package imports with ${FLAG}`, { skip }, async () => {
  const entries = await publishedEntries();
  assert.ok(entries.length >= 14, entries.join(', '));
  assert.ok(entries.includes('@hickory/core') && entries.includes('@hickory/app') && entries.includes('@hickory/dispatch/kit'), entries.join(', '));
  // One child for them all: each import is tried, and the failures are reported together.
  const script = `const failed = [];
for (const name of ${JSON.stringify(entries)}) {
  try { await import(name); } catch (error) { failed.push(name + ': ' + (error.code ?? '') + ' ' + error.message.split('\\n')[0]); }
}
console.log(JSON.stringify(failed));`;
  const { NODE_OPTIONS: _, NODE_TEST_CONTEXT: __, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, [FLAG, '--input-type=module', '-e', script], { cwd: REPO, env, timeout: 60_000 });
  assert.deepEqual(JSON.parse(stdout), []);
});
