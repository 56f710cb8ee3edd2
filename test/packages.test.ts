// What `npm publish` would put in each package: the compiled code, never the compiled tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
  }
});
