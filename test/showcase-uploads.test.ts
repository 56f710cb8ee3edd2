// The showcase's /files/ keeps what anyone uploads within bounds (the latest files, so many bytes
// in all; the oldest dropped, from disk too), and its folder goes when the app stops: on
// `app.close()` and on SIGTERM under `hickory serve`. Before, 120 anonymous uploads were all kept
// and listed, and the folder stayed on disk after SIGTERM.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Kernel } from '@hickory/core';
import { createSandbox } from '@hickory/sandbox/app';
import { REPO, serveFixture } from './fixtures/cli/harness.ts';

const BOUNDARY = 'showcase-uploads-boundary';

function uploadVia(app: Kernel, filename: string, content: string) {
  const payload = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`;
  return app.inject({ method: 'POST', url: '/files/', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, payload });
}

const listed = (page: string) => [...page.matchAll(/<a href="download\/(\d+)">([^<]*)<\/a> \((\d+) bytes/g)].map(([, id, name, size]) => `${id}:${name}:${size}`);

// The upload folders (hickory-sandbox-files-*) under the temporary folder whose file `id` holds `content`.
async function foldersHolding(id: string, content: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(tmpdir())) {
    if (!name.startsWith('hickory-sandbox-files-')) continue;
    const text = await readFile(join(tmpdir(), name, id), 'utf8').catch(() => undefined);
    if (text === content) found.push(join(tmpdir(), name));
  }
  return found;
}

test('in process: the latest files within the count and byte bounds are listed and downloadable, the oldest 404; close() removes the folder', async () => {
  const marker = randomUUID();
  const app = await createSandbox({ logger: false }, {}, { maxFiles: 3, maxBytes: 200 });
  let closed = false;
  try {
    for (let i = 1; i <= 5; i++) assert.equal((await uploadVia(app, `note-${i}.txt`, `${marker}-${i}`)).statusCode, 303);
    const size = `${marker}-1`.length;
    assert.deepEqual(listed((await app.inject('/files/')).body), [`3:note-3.txt:${size}`, `4:note-4.txt:${size}`, `5:note-5.txt:${size}`]);
    assert.equal((await app.inject('/files/download/1')).statusCode, 404);
    const kept = await app.inject('/files/download/5');
    assert.equal(kept.statusCode, 200);
    assert.equal(kept.body, `${marker}-5`);
    const [folder] = await foldersHolding('5', `${marker}-5`);
    assert.ok(folder, 'the upload folder is under the temporary folder');
    assert.deepEqual((await readdir(folder)).sort(), ['3', '4', '5']);
    // The byte bound: 150 bytes more leave room for one of the three 38-byte files only.
    assert.equal((await uploadVia(app, 'big.txt', 'x'.repeat(150))).statusCode, 303);
    assert.deepEqual(listed((await app.inject('/files/')).body), [`5:note-5.txt:${size}`, '6:big.txt:150']);
    assert.deepEqual((await readdir(folder)).sort(), ['5', '6']);
    // One file over the whole bound: 413, and the shelf unchanged.
    const huge = await uploadVia(app, 'huge.txt', 'x'.repeat(201));
    assert.equal(huge.statusCode, 413);
    assert.deepEqual(listed((await app.inject('/files/')).body), [`5:note-5.txt:${size}`, '6:big.txt:150']);
    await app.close();
    closed = true;
    assert.equal(existsSync(folder), false, 'app.close() removed the upload folder');
  } finally {
    if (!closed) await app.close();
  }
});

test('hickory serve: 30 anonymous uploads keep the latest 20, and SIGTERM removes the upload folder', { timeout: 60_000 }, async () => {
  const marker = randomUUID();
  const { cli, url } = await serveFixture(['sandbox/config.ts', '--host', '127.0.0.1', '--port', '0', '--workers', '1'], REPO, undefined, { HICKORY_SANDBOX_DB: ':memory:', DATABASE_URL: '' });
  let folder: string | undefined;
  try {
    for (let i = 1; i <= 30; i++) {
      const form = new FormData();
      form.append('file', new Blob([`${marker}-${i}`], { type: 'text/plain' }), `upload-${i}.txt`);
      const answer = await fetch(`${url}/files/`, { method: 'POST', body: form, redirect: 'manual' });
      assert.equal(answer.status, 303, `upload ${i}`);
    }
    const ids = listed(await (await fetch(`${url}/files/`)).text()).map((row) => row.split(':')[0]);
    assert.deepEqual(ids, Array.from({ length: 20 }, (_, i) => String(i + 11)));
    assert.equal((await fetch(`${url}/files/download/10`)).status, 404);
    assert.equal(await (await fetch(`${url}/files/download/30`)).text(), `${marker}-30`);
    const folders = await foldersHolding('30', `${marker}-30`);
    assert.equal(folders.length, 1);
    folder = folders[0]!;
    assert.equal((await readdir(folder)).length, 20);
  } finally {
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited(20_000).catch(() => (cli.stop(), 'killed')), 0);
  }
  assert.equal(existsSync(folder), false, 'SIGTERM removed the upload folder');
});
