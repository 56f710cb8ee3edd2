// The built command, as an installed package runs it: plain Node, no tsx preloaded, loading a
// TypeScript config and controller (it used to fail with `Unknown file extension ".ts"`).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { get, serveFixture } from './fixtures/cli/harness.ts';

const BUILT = fileURLToPath(new URL('../cli/dist/cli.js', import.meta.url));

test('the built hickory command serves a .ts config and controller on plain Node', { skip: existsSync(BUILT) ? false : 'cli/dist is not built: run tsc -b (npm test does)' }, async () => {
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--port', '0'], undefined, BUILT);
  try {
    assert.deepEqual(await get(`${url}/`), { status: 200, body: 'hello from the cli fixture' });
    assert.doesNotMatch(cli.stderr(), /Unknown file extension|Warning/);
  } finally {
    cli.stop();
  }
});
