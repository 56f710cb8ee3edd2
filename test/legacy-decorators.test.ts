// A project whose tsconfig.json says "experimentalDecorators": true compiles @expose the legacy
// way (tsx follows tsconfig.json): the run-time error names that setting and how to fix it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO } from './fixtures/cli/harness.ts';

test('under experimentalDecorators: true, @expose fails naming the setting', async () => {
  // Inside the repository, so that @hickory/app resolves as it does for users.
  const dir = join(REPO, 'test', 'docs', '.tmp', `legacy-decorators-${process.pid}`);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', experimentalDecorators: true } }));
    await writeFile(join(dir, 'app.ts'), `import { expose } from '@hickory/app';
export class BooksController {
  @expose('json') index() { return []; }
}
`);
    const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...env } = process.env;
    const run = promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', 'app.ts'], { cwd: dir, env, timeout: 30_000 });
    await assert.rejects(run, (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /@expose on BooksController\.index was called as a legacy decorator \(target, name, descriptor\), as TypeScript compiles decorators under "experimentalDecorators": true\. Hickory's decorators are TC39 standard decorators: remove experimentalDecorators \(and emitDecoratorMetadata\) from tsconfig\.json\./);
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
