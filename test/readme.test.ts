// The README's first example, as a reader copies it: it serves what its comments say, and the
// framework has nothing to warn about (a public field holding data used to be "leads nowhere").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort, get, REPO } from './fixtures/cli/harness.ts';

test('the README\'s first example serves its routes and logs no warning', async () => {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(code?.includes('createApp('), 'the first ts block is the createApp example');
  const port = await freePort();
  // Written inside the repository (a dot folder tsc skips), so that @hickory/app resolves as for users.
  const dir = join(REPO, 'test', 'docs', '.tmp', `readme-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'readme.ts');
  await writeFile(file, code!.replace('port: 8080', `port: ${port}`));
  const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...env } = process.env;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', file], { cwd: REPO, env: { ...env, NODE_ENV: 'development' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    const deadline = Date.now() + 20_000;
    while (!output.includes('serving on') && Date.now() < deadline && child.exitCode === null) await new Promise((go) => setTimeout(go, 50));
    assert.match(output, new RegExp(`serving on http://127\\.0\\.0\\.1:${port}`), output);
    const url = `http://127.0.0.1:${port}`;
    assert.deepEqual(await get(`${url}/`), { status: 200, body: '<h1>Hello</h1>' });
    assert.deepEqual(await get(`${url}/hello?name=Ada`), { status: 200, body: '{"hello":"Ada"}' });
    assert.deepEqual(await get(`${url}/books/`), { status: 200, body: '[{"id":"1","name":"Dune"}]' });
    assert.deepEqual(await get(`${url}/books/1`), { status: 200, body: '{"id":"1","name":"Dune"}' });
    assert.equal((await get(`${url}/books/books/`)).status, 404);
    // Every line it printed: the URL, and the requests it answered (no warning).
    const lines = output.trim().split('\n').filter((line) => !line.includes('serving on'));
    for (const line of lines) assert.doesNotMatch(line, /"level":(40|50)|warn|leads nowhere/i, output);
  } finally {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
});
