// @hickory/compress with the rest of createApp(): static files (answered before routing, on
// `send`), negotiated renderings (Vary: Accept and Accept-Encoding together), and the plugin
// given in `plugins` as a config file would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressPlugin, createApp, expose } from '@hickory/app';

const CSS = Array.from({ length: 120 }, (_, i) => `.c${i} { color: #${(i * 2047).toString(16).padStart(6, '0')}; margin: ${i}px; }`).join('\n');

class Root {
  @expose('json')
  @expose()
  books() {
    return Array.from({ length: 100 }, (_, i) => ({ id: i, title: `Book ${i}` }));
  }
}

async function withApp(run: (app: ReturnType<typeof createApp>) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-compress-'));
  try {
    await writeFile(join(dir, 'style.css'), CSS);
    await writeFile(join(dir, 'tiny.txt'), 'tiny');
    await writeFile(join(dir, 'logo.png'), Buffer.alloc(8192, 1));
    const app = createApp({ root: new Root(), static_root: dir, logger: false, plugins: [[compressPlugin, { threshold: 1024 }]] });
    try {
      await run(app);
    } finally {
      await app.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('static files are compressed as they stream; send\'s validators, 304 and ranges still work', async () => {
  await withApp(async (app) => {
    const plain = await app.inject('/style.css');
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-length'], String(Buffer.byteLength(CSS)));
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const tag = String(plain.headers.etag);
    assert.match(tag, /^W\/"/);

    const br = await app.inject({ url: '/style.css', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(br.headers['content-length'], undefined);
    assert.equal(br.headers['accept-ranges'], undefined);
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.equal(br.headers.etag, tag);
    assert.ok(br.headers['last-modified']);
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), CSS);
    assert.ok(br.rawPayload.length < Buffer.byteLength(CSS) / 3, `${br.rawPayload.length} bytes`);

    const gzip = await app.inject({ url: '/style.css', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gunzipSync(gzip.rawPayload).toString(), CSS);

    const notModified = await app.inject({ url: '/style.css', headers: { 'accept-encoding': 'br', 'if-none-match': tag } });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.rawPayload.length, 0);
    assert.equal(notModified.headers['content-encoding'], undefined);

    const range = await app.inject({ url: '/style.css', headers: { 'accept-encoding': 'br', range: 'bytes=0-9' } });
    assert.equal(range.statusCode, 206);
    assert.equal(range.headers['content-encoding'], undefined);
    assert.equal(range.body, CSS.slice(0, 10));

    const head = await app.inject({ method: 'HEAD', url: '/style.css', headers: { 'accept-encoding': 'br' } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-encoding'], undefined);
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(CSS)));
    assert.equal(head.headers.vary, 'Accept-Encoding');
    assert.equal(head.rawPayload.length, 0);

    const tiny = await app.inject({ url: '/tiny.txt', headers: { 'accept-encoding': 'br' } });
    assert.equal(tiny.headers['content-encoding'], undefined);
    assert.equal(tiny.body, 'tiny');
    const png = await app.inject({ url: '/logo.png', headers: { 'accept-encoding': 'br' } });
    assert.equal(png.headers['content-encoding'], undefined);
    assert.equal(png.rawPayload.length, 8192);
  });
});

test('a negotiated rendering carries Vary: Accept, Accept-Encoding, and its ETag is the same in every coding', async () => {
  await withApp(async (app) => {
    const expected = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: i, title: `Book ${i}` })));
    const br = await app.inject({ url: '/books', headers: { accept: 'application/json', 'accept-encoding': 'br' } });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers.vary, 'Accept, Accept-Encoding');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), expected);
    const plain = await app.inject({ url: '/books', headers: { accept: 'application/json' } });
    assert.equal(plain.body, expected);
    assert.equal(plain.headers.vary, 'Accept, Accept-Encoding');
    assert.equal(plain.headers.etag, br.headers.etag);
    const again = await app.inject({ url: '/books', headers: { accept: 'application/json', 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.headers.vary, 'Accept, Accept-Encoding');
    // By extension the representation is the URL's: only Accept-Encoding is left to vary on.
    const byExtension = await app.inject({ url: '/books.json', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(byExtension.headers.vary, 'Accept-Encoding');
    assert.equal(gunzipSync(byExtension.rawPayload).toString(), expected);
  });
});
