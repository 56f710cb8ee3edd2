// The README's "Production plugins" sample, as a reader copies it into a new project: it runs and
// its own assertions hold (CORS, security headers, the rate limit's 429, /readyz, /openapi.json).
// test/docs.test.ts runs the samples of docs/ only, and test/readme.test.ts the README's first one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from './fixtures/cli/harness.ts';

test('the README\'s production plugins sample runs and its assertions hold', { timeout: 60_000 }, async () => {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Production plugins\n'));
  assert.notEqual(readme.indexOf('\n## Production plugins\n'), -1, 'the README has its "Production plugins" section');
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  for (const name of ['corsPlugin', 'securityHeadersPlugin', 'rateLimitPlugin', 'rate_limit', 'healthPlugin', 'openapiPlugin']) {
    assert.ok(code?.includes(name), `the sample turns on ${name}`);
  }
  // Inside the repository (a dot folder tsc skips), so that @hickory/app resolves as for users.
  const dir = join(REPO, 'test', 'docs', '.tmp', `readme-production-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'production.ts');
  await writeFile(file, code!);
  const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...env } = process.env;
  try {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', file], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    assert.equal(code, 0, output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
