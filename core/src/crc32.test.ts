import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { crc32, crc32InJavaScript } from './crc32.ts';

test('CRC-32: the standard check value, text as its UTF-8 bytes', () => {
  // The check value of the CRC-32 used by zlib, gzip and PNG.
  assert.equal(crc32('123456789'), 0xcbf43926);
  assert.equal(crc32(''), 0);
  assert.equal(crc32('é😀'), crc32(Buffer.from('é😀', 'utf8')));
});

test('the JavaScript CRC-32 (for Node releases without zlib.crc32) gives what zlib gives', () => {
  const inputs: (string | Uint8Array)[] = ['', 'a', 'hello', '123456789', 'é'.repeat(300), '😀 and text', 'x'.repeat(5000), new Uint8Array(1000).map((_, i) => (i * 131) & 0xff)];
  for (const input of inputs) {
    const expected = (zlib as unknown as { crc32(data: string | Uint8Array): number }).crc32(input);
    assert.equal(crc32InJavaScript(input), expected, typeof input === 'string' ? input.slice(0, 12) : 'bytes');
  }
});
