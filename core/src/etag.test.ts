import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { createKernel, Response } from './index.ts';
import { noneMatchHits, weakTag } from './etag.ts';
import { routes } from './fixtures/harness.ts';

// CRC-32 of "hello" is 0x3610a686 (what zlib, gzip and PNG compute).
const HELLO_TAG = 'W/"5-3610a686"';

function app(config: { etag?: boolean } = {}) {
  return createKernel({ logger: false, ...config }).use(
    routes({
      '/hello': () => 'hello',
      '/bytes': () => new Uint8Array([104, 101, 108, 108, 111]),
      '/json': () => ({ hello: 'world' }),
      '/cached': (_request, response) => {
        response.headers['Cache-Control'] = 'max-age=60';
        response.headers['Vary'] = 'Accept';
        response.headers['Content-Type'] = 'text/plain; charset=utf-8';
        return 'hello';
      },
      '/own': (_request, response) => {
        response.headers['ETag'] = '"v7"';
        return 'hello';
      },
      '/created': () => new Response('hello', 201),
      '/empty': () => '',
      '/stream': (_request, response) => {
        response.app_iter = Readable.from(['hel', 'lo']);
      },
      '/unicode': () => 'héllo',
      '/large': () => 'a'.repeat(1000),
    }),
  );
}

test('a buffered GET/HEAD 200 gets a weak ETag of its byte length and CRC-32, and that length is its Content-Length', async () => {
  const kernel = app();
  const text = await kernel.inject('/hello');
  assert.equal(text.statusCode, 200);
  assert.equal(text.headers.etag, HELLO_TAG);
  assert.equal(text.body, 'hello');
  // The same bytes as bytes: the same tag.
  assert.equal((await kernel.inject('/bytes')).headers.etag, HELLO_TAG);
  // A string is measured in bytes (é is two).
  assert.match(String((await kernel.inject('/unicode')).headers.etag), /^W\/"6-[0-9a-f]{1,8}"$/);
  const head = await kernel.inject({ method: 'HEAD', url: '/hello' });
  assert.equal(head.headers.etag, HELLO_TAG);
  assert.equal(head.body, '');
  // The length measured for the tag is the Content-Length too.
  assert.equal(text.headers['content-length'], '5');
  assert.equal((await kernel.inject('/unicode')).headers['content-length'], '6');
  const large = await kernel.inject('/large');
  assert.equal(large.headers.etag, expectedTag('a'.repeat(1000)));
  assert.equal(large.headers['content-length'], '1000');
  assert.equal((await kernel.inject({ url: '/large', headers: { 'if-none-match': String(large.headers.etag) } })).statusCode, 304);
  const json = await kernel.inject('/json');
  assert.equal(json.headers.etag, weakTag('{"hello":"world"}'));
  await kernel.close();
});

// The tag as the slow, obvious code would write it: CRC-32 bit by bit over the UTF-8 bytes, the
// byte length and the checksum in lowercase hex, the checksum padded to eight digits.
function expectedTag(body: string | Uint8Array): string {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return `W/"${bytes.length.toString(16)}-${((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0')}"`;
}

test('tags: lengths of one to five hex digits, checksums with leading zeros, multi-byte text, bytes like text', () => {
  const bodies: (string | Uint8Array)[] = ['', 'a', 'x'.repeat(15), 'x'.repeat(16), 'y'.repeat(255), 'z'.repeat(256), 'é'.repeat(200), '😀'.repeat(128), new Uint8Array(256).fill(7)];
  bodies.push('w'.repeat(4095), 'v'.repeat(4096), '{"n":1}'.repeat(10000), new Uint8Array(70000).fill(200));
  // Bodies whose hash starts with a zero digit (found by counting up): the padding is kept.
  for (let i = 0, found = 0; found < 3; i++) {
    const body = `body ${i}`;
    if (expectedTag(body).split('-')[1]!.startsWith('0')) {
      bodies.push(body);
      found++;
    }
  }
  for (const body of bodies) assert.equal(weakTag(body), expectedTag(body), JSON.stringify(typeof body === 'string' ? body.slice(0, 20) : 'bytes'));
});

test('no ETag on other statuses, methods, empty bodies and streams; an own ETag is kept', async () => {
  const kernel = app();
  assert.equal((await kernel.inject('/created')).headers.etag, undefined);
  assert.equal((await kernel.inject({ method: 'POST', url: '/hello' })).headers.etag, undefined);
  const empty = await kernel.inject('/empty');
  assert.equal(empty.statusCode, 204);
  assert.equal(empty.headers.etag, undefined);
  const stream = await kernel.inject('/stream');
  assert.equal(stream.body, 'hello');
  assert.equal(stream.headers.etag, undefined);
  assert.equal((await kernel.inject('/missing')).headers.etag, undefined);
  assert.equal((await kernel.inject('/own')).headers.etag, '"v7"');
  await kernel.close();
});

test('a matching If-None-Match answers 304 without a body, keeping ETag, Cache-Control and Vary', async () => {
  const kernel = app();
  for (const ifNoneMatch of [HELLO_TAG, '"5-3610a686"', `"x", ${HELLO_TAG}`, '*', 'W/"a,b", W/"5-3610a686"']) {
    const res = await kernel.inject({ url: '/cached', headers: { 'if-none-match': ifNoneMatch } });
    assert.equal(res.statusCode, 304, ifNoneMatch);
    assert.equal(res.body, '', ifNoneMatch);
    assert.equal(res.headers.etag, HELLO_TAG);
    assert.equal(res.headers['cache-control'], 'max-age=60');
    assert.equal(res.headers.vary, 'Accept');
    assert.equal(res.headers['content-type'], undefined);
    assert.equal(res.headers['content-length'], undefined);
  }
  const head = await kernel.inject({ method: 'HEAD', url: '/hello', headers: { 'if-none-match': HELLO_TAG } });
  assert.equal(head.statusCode, 304);
  // Another tag, a tag cut short, a reload: the full answer.
  for (const headers of [{ 'if-none-match': 'W/"5-00000000"' }, { 'if-none-match': '"5-3610a68' }, { 'if-none-match': HELLO_TAG, 'cache-control': 'no-cache' }]) {
    const res = await kernel.inject({ url: '/hello', headers });
    assert.equal(res.statusCode, 200, JSON.stringify(headers));
    assert.equal(res.body, 'hello');
  }
  // The application's own tag is compared too.
  assert.equal((await kernel.inject({ url: '/own', headers: { 'if-none-match': 'W/"v7"' } })).statusCode, 304);
  await kernel.close();
});

test('etag: false makes no tag but still honours a tag the application set', async () => {
  const kernel = app({ etag: false });
  const res = await kernel.inject('/hello');
  assert.equal(res.headers.etag, undefined);
  assert.equal((await kernel.inject({ url: '/hello', headers: { 'if-none-match': '*' } })).statusCode, 200);
  assert.equal((await kernel.inject({ url: '/own', headers: { 'if-none-match': '"v7"' } })).statusCode, 304);
  await kernel.close();
});

test('If-None-Match is read as a list of quoted tags', () => {
  assert.equal(noneMatchHits('"a", W/"b"', 'W/"b"'), true);
  assert.equal(noneMatchHits('W/"b"', '"b"'), true);
  assert.equal(noneMatchHits(['"x"', '"b"'], '"b"'), true);
  assert.equal(noneMatchHits('"a,b"', '"b"'), false);
  assert.equal(noneMatchHits('b, "c"', '"b"'), false);
  assert.equal(noneMatchHits('"bb"', '"b"'), false);
  assert.equal(noneMatchHits('', '"b"'), false);
});
