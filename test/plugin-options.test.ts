// A config file's `app.plugins` gives first-party plugins their options, as `hickory serve` loads
// it (loadApp: loadConfig, then createApp): they take effect, and a misspelt one stops the start.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { loadApp } from '@hickory/cli';
import { silentLogger } from '@hickory/core/kit';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/plugin-options/${name}`, import.meta.url));

const BOUNDARY = 'hickoryconfig';
function upload(size: number) {
  return {
    method: 'POST' as const,
    url: '/upload',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\n\r\n`),
      Buffer.alloc(size, 0x62),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  };
}

test("a config file's app.plugins options take effect: multipart's fileSize (413 past it) and static caching", async () => {
  const { app } = await loadApp(fixture('config.ts'), silentLogger);
  try {
    const at = await app.inject(upload(1000));
    assert.equal(at.statusCode, 200, at.body);
    assert.deepEqual(at.json(), { size: 1000 });
    const past = await app.inject(upload(1001));
    assert.equal(past.statusCode, 413);
    assert.match(past.body, /fileSize/);
    const file = await app.inject('/hello.txt');
    assert.equal(file.statusCode, 200);
    assert.equal(file.body, 'static hello\n');
    assert.equal(file.headers['cache-control'], 'public, max-age=3600, immutable');
  } finally {
    await app.close();
  }
});

test('a config file with an unknown plugin option fails to load, naming the file, the plugin and the option', async () => {
  const file = fixture('config-unknown-option.ts');
  await assert.rejects(loadApp(file, silentLogger), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_CLI_CONFIG');
    assert.ok(error.message.includes(file), error.message);
    assert.ok(error.message.includes('multipartPlugin option "maxFileSize" is unknown (known: limits, memoryThreshold, tmpdir).'), error.message);
    return true;
  });
});
