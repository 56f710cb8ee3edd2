// Runs every test file of the repository in one `node --test` run, so that its closing
// summary is the last thing printed (CI reads it). Node 20 does not expand globs itself.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const skip = new Set(['node_modules', 'dist', '.git', '.turbo', '.cache', 'test-output']);
// Arguments: path parts to run only those files; `--exclude <part>` leaves files out.
const only = [];
const excluded = [];
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--exclude') excluded.push(process.argv[++i]);
  else only.push(process.argv[i]);
}

function find(dir, out) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (/\.test\.(ts|mts|js|mjs)$/.test(name)) out.push(relative(root, path));
  }
  return out;
}

const files = ['core', 'plugins', 'app', 'cli', 'create-hickory', 'sandbox', 'test', 'benchmarks']
  .flatMap((dir) => {
    try {
      return find(join(root, dir), []);
    } catch {
      return [];
    }
  })
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .filter((file) => !excluded.some((part) => file.includes(part)))
  .sort();

if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (excluded.length > 0) console.log(`# left out on purpose: test files whose path contains ${excluded.join(', ')}`);
// TAP whenever the output is not a terminal, on every Node line (Node 24+ would print its spec
// format to a pipe): one format for CI to read, whatever the runtime.
const reporter = process.stdout.isTTY ? [] : ['--test-reporter=tap'];
const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', ...reporter, ...files], {
  cwd: root,
  stdio: 'inherit',
  // The showcase's database in memory: no test reads or writes sandbox/data/.
  env: { HICKORY_SANDBOX_DB: ':memory:', ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
process.exit(result.status ?? 1);
