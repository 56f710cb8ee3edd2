// Runs every test file of the repository in one `node --test` run, so that its closing
// summary is the last thing printed (CI reads it). Node 20 does not expand globs itself.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const skip = new Set(['node_modules', 'dist', '.git', '.turbo', 'test-output']);
const only = process.argv.slice(2);

function find(dir, out) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (/\.test\.(ts|mts|js|mjs)$/.test(name)) out.push(relative(root, path));
  }
  return out;
}

const files = ['core', 'plugins', 'hickory', 'sandbox', 'test', 'benchmarks']
  .flatMap((dir) => {
    try {
      return find(join(root, dir), []);
    } catch {
      return [];
    }
  })
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();

if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
process.exit(result.status ?? 1);
