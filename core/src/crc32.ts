import zlib from 'node:zlib';

type Crc32 = (data: string | Uint8Array) => number;

/**
 * CRC-32 (IEEE 802.3, as zlib and gzip compute it) of a string's UTF-8 bytes or of bytes, as an
 * unsigned 32-bit number: zlib's own, one call into native code (Node 20.15 and 22.2 on), else
 * {@link crc32InJavaScript}, which gives the same number.
 *
 * @example
 * ```ts
 * crc32('hello').toString(16); // '3610a686'
 * ```
 */
export const crc32: Crc32 = (zlib as { crc32?: Crc32 }).crc32 ?? crc32InJavaScript;

// The remainders of every byte, for the table-driven form (the reflected polynomial 0xedb88320).
let table: Int32Array | undefined;

/**
 * CRC-32 in JavaScript, one table look-up a byte: for the Node 20 releases before 20.15, which have
 * no `zlib.crc32` (a dozen lines here rather than a dependency for old releases only).
 *
 * @example
 * ```ts
 * crc32InJavaScript(new Uint8Array([104, 101, 108, 108, 111])) === crc32('hello'); // true
 * ```
 */
export function crc32InJavaScript(data: string | Uint8Array): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const remainders = (table ??= remainderTable());
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = remainders[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

function remainderTable(): Int32Array {
  const remainders = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    remainders[n] = c;
  }
  return remainders;
}
