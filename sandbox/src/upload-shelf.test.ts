import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { HTTPError } from '@hickory/core';
import { UploadedFile } from '@hickory/multipart';
import { UploadShelf } from './upload-shelf.ts';

// An upload as the multipart plugin hands it over: a temporary file of `size` bytes.
async function upload(dir: string, filename: string, size: number): Promise<UploadedFile> {
  const path = join(dir, `upload-${filename}`);
  await writeFile(path, Buffer.alloc(size, filename));
  return new UploadedFile({ filename, type: 'text/plain', encoding: '7bit', size, truncated: false }, { path });
}

test('the shelf keeps the latest maxFiles files and maxBytes bytes (oldest dropped, from disk too), and clear() removes its folder', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-upload-shelf-test-'));
  const shelf = new UploadShelf({ maxFiles: 3, maxBytes: 1000 });
  try {
    assert.equal(shelf.folder, undefined, 'no folder before the first upload');
    for (const name of ['a', 'b', 'c', 'd', 'e']) await shelf.add(await upload(dir, name, 100));
    const folder = shelf.folder!;
    assert.deepEqual(shelf.list().map((f) => [f.id, f.filename]), [['3', 'c'], ['4', 'd'], ['5', 'e']]);
    assert.deepEqual((await readdir(folder)).sort(), ['3', '4', '5']);
    assert.equal(shelf.get('1'), undefined);
    assert.equal(await readFile(shelf.get('5')!.path, 'utf8'), 'e'.repeat(100));
    // 850 bytes more: dropping c for the count leaves 1050 bytes, so d goes too.
    await shelf.add(await upload(dir, 'big', 850));
    assert.deepEqual(shelf.list().map((f) => f.filename), ['e', 'big']);
    assert.equal(shelf.bytes, 950);
    assert.deepEqual((await readdir(folder)).sort(), ['5', '6']);
    // One file larger than the whole shelf: 413, and nothing dropped for it.
    await assert.rejects(shelf.add(await upload(dir, 'huge', 1001)), (error: unknown) => error instanceof HTTPError && error.status === 413 && error.detail === 'A file of 1001 bytes is more than the 1000 bytes this showcase keeps.');
    assert.deepEqual(shelf.list().map((f) => f.filename), ['e', 'big']);
    await shelf.clear();
    assert.equal(existsSync(folder), false);
    assert.deepEqual(shelf.list(), []);
    assert.equal(shelf.bytes, 0);
    // Used again after clear(): a new folder.
    await shelf.add(await upload(dir, 'again', 10));
    assert.notEqual(shelf.folder, folder);
    assert.deepEqual(await readdir(shelf.folder!), ['7']);
  } finally {
    await shelf.clear();
    await rm(dir, { recursive: true, force: true });
  }
});
