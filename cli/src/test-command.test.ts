import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCli } from './cli-args.ts';
import { findTestFiles } from './test-command.ts';

test('findTestFiles finds *.test.* at any depth, sorted, and no dependency, hidden folder or helper', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-test-files-'));
  try {
    for (const file of ['test/app.test.ts', 'test/books/books.test.ts', 'test/books/deep/x.test.mts', 'test/legacy.test.js', 'test/helpers.ts', 'test/fixture.json', 'test/node_modules/dep/a.test.js', 'test/.cache/b.test.ts', 'other/c.test.ts']) {
      await mkdir(join(dir, file, '..'), { recursive: true });
      await writeFile(join(dir, file), '');
    }
    assert.deepEqual(findTestFiles(['test'], dir), ['test/app.test.ts', 'test/books/books.test.ts', 'test/books/deep/x.test.mts', 'test/legacy.test.js']);
    assert.deepEqual(findTestFiles(['other/c.test.ts', 'test/books'], dir), ['other/c.test.ts', 'test/books/books.test.ts', 'test/books/deep/x.test.mts']);
    assert.throws(() => findTestFiles(['books'], dir), {
      code: 'HICKORY_ERR_CLI_USAGE',
      message: 'hickory test: no file or folder "books" (node\'s own options take their value after "=": --test-name-pattern=books) (see hickory --help)',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('parseCli: hickory test passes the options to Node and keeps the paths', () => {
  assert.deepEqual(parseCli(['test']), { command: 'test', paths: [], nodeOptions: [] });
  assert.deepEqual(parseCli(['test', 'test/books', '--test-name-pattern=list', '--test-only']), {
    command: 'test', paths: ['test/books'], nodeOptions: ['--test-name-pattern=list', '--test-only'],
  });
  assert.deepEqual(parseCli(['test', '--help']), { command: 'help' });
});
