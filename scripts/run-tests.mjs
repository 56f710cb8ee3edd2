// Runs every test file of the repository in one `node --test` run, so that its closing
// summary comes last (CI reads it), followed by one line naming every test and suite that was
// skipped, and why. Node 20 does not expand globs itself.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

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
// format to a pipe): one format for CI to read, whatever the runtime. A second reporter notes
// what was skipped, named in the last line.
const skippedFile = join(mkdtempSync(join(tmpdir(), 'hickory-tests-')), 'skipped.jsonl');
const reporters = [
  `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
  '--test-reporter-destination=stdout',
  `--test-reporter=${pathToFileURL(join(root, 'scripts', 'skipped-reporter.mjs')).href}`,
  `--test-reporter-destination=${skippedFile}`,
];
const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', ...reporters, ...files], {
  cwd: root,
  stdio: 'inherit',
  // The showcase's database in memory: no test reads or writes sandbox/data/.
  env: { HICKORY_SANDBOX_DB: ':memory:', ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
console.log(skippedLine(skippedFile));
rmSync(dirname(skippedFile), { recursive: true, force: true });
process.exit(result.status ?? 1);

// One line naming every test and suite that did not run, grouped by the reason given.
function skippedLine(file) {
  let entries = [];
  try {
    entries = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  } catch {
    return '# not run: unknown (the runner wrote no report of skipped tests)';
  }
  if (entries.length === 0) return '# not run: nothing (no test or suite was skipped)';
  const byReason = new Map();
  for (const { file: path, name, reason, suite } of entries) {
    const where = `${path ? relative(root, path.startsWith('file:') ? new URL(path).pathname : path) : '?'} "${name}"${suite ? ' (suite)' : ''}`;
    const list = byReason.get(reason || 'no reason given') ?? [];
    list.push(where);
    byReason.set(reason || 'no reason given', list);
  }
  const parts = [...byReason].map(([reason, list]) => `${reason}: ${list.join(', ')}`);
  return `# not run (${entries.length}): ${parts.join('; ')}`;
}
