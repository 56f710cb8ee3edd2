// A project whose tsconfig.json says "experimentalDecorators": true compiles @expose the legacy
// way (tsx follows tsconfig.json): the run-time error names that setting and how to fix it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO } from './fixtures/cli/harness.ts';

// Compiles and runs `source` under "experimentalDecorators": true; its stderr.
async function runLegacy(source: string): Promise<string> {
  // Inside the repository, so that @hickory/app resolves as it does for users.
  const dir = join(REPO, 'test', 'docs', '.tmp', `legacy-decorators-${process.pid}`);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', experimentalDecorators: true } }));
    await writeFile(join(dir, 'app.ts'), source);
    const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...env } = process.env;
    const run = promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', 'app.ts'], { cwd: dir, env, timeout: 30_000 });
    let stderr = '';
    await assert.rejects(run, (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      stderr = error.stderr;
      return true;
    });
    return stderr;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const FIX = /was called as a legacy decorator \(target, name, descriptor\), as TypeScript compiles decorators under "experimentalDecorators": true\. Hickory's decorators are TC39 standard decorators: remove experimentalDecorators \(and emitDecoratorMetadata\) from tsconfig\.json\./;

test('under experimentalDecorators: true, @expose fails naming the setting', async () => {
  const stderr = await runLegacy(`import { expose } from '@hickory/app';
export class BooksController {
  @expose('json') index() { return []; }
}
`);
  assert.match(stderr, new RegExp(`@expose on BooksController\\.index ${FIX.source}`));
});

test("under experimentalDecorators: true, the hooks package's decorators fail naming the setting too", async () => {
  const stderr = await runLegacy(`import { secure } from '@hickory/app';
export class AdminController {
  @secure(() => true) stats() { return 'stats'; }
}
`);
  assert.match(stderr, new RegExp(`@secure on AdminController\\.stats ${FIX.source}`));
});
