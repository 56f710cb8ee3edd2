// scripts/run-tests.mjs (what `npm test` runs) ends with one line naming every test and suite
// that did not run and why: Node's own summary leaves out a suite skipped as a whole.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO } from './fixtures/cli/harness.ts';

const SKIPPING = `import { describe, test } from 'node:test';
describe('a browser suite', { skip: 'no Chromium here' }, () => {
  test('never runs', () => {});
});
test('a database test', { skip: 'no PostgreSQL here' }, () => {});
test('a test that runs', () => {});
`;

test('the test run ends with one line naming each skipped suite and test with its reason', async () => {
  // Inside the repository (where the script looks for tests), in a folder of this run only.
  const folder = join('test', 'docs', '.tmp', `run-tests-${process.pid}`);
  await mkdir(join(REPO, folder), { recursive: true });
  try {
    await writeFile(join(REPO, folder, 'skips.test.mjs'), SKIPPING);
    const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...env } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/run-tests.mjs', `${folder}/`], { cwd: REPO, env, timeout: 60_000 });
    const lines = stdout.trimEnd().split('\n');
    const file = `${folder}/skips.test.mjs`;
    assert.equal(lines.at(-1), `# not run (2): no Chromium here: ${file} "a browser suite" (suite); no PostgreSQL here: ${file} "a database test"`);
    // The test that runs did (the run exited 0: execFile would have thrown).
    assert.match(stdout, /a test that runs/);
  } finally {
    await rm(join(REPO, folder), { recursive: true, force: true });
  }
});

test('with nothing skipped, the line says so', async () => {
  const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/run-tests.mjs', 'cli/src/cli-args.test.ts'], { cwd: REPO, env, timeout: 60_000 });
  assert.equal(stdout.trimEnd().split('\n').at(-1), '# not run: nothing (no test or suite was skipped)');
});
