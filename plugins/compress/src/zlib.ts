import { Readable, pipeline, type Transform } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { AppIter } from '@hickory/core';
import type { Encoding } from './options.ts';

// Brotli's default quality (11) is made for files compressed once ahead of time: on a 64 KB JSON
// answer it costs tens of milliseconds. Quality 4 compresses at about gzip's level-6 speed and
// still beats it by some 10–20% in size: the setting nginx, Cloudflare and @fastify/compress
// users choose for answers made per request. TEXT mode tells it the input is UTF-8 text.
const BROTLI_QUALITY = 4;
// gzip's default level (6): zlib's own balance of speed and size.
const GZIP_LEVEL = zlib.constants.Z_DEFAULT_COMPRESSION;

function brotliOptions(size: number | undefined): zlib.BrotliOptions {
  const params: Record<number, number> = {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  };
  // A known size lets brotli size its window and buffers to it.
  if (size !== undefined) params[zlib.constants.BROTLI_PARAM_SIZE_HINT] = size;
  return { params };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compresses a whole body on libuv's thread pool (the event loop goes on serving meanwhile).
 *
 * @example
 * ```ts
 * response.body = await compressBuffer(Buffer.from(text), 'br');
 * ```
 */
export function compressBuffer(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, brotliOptions(body.byteLength)) : gzip(body, { level: GZIP_LEVEL });
}

/**
 * A streamed body through a zlib stream, with back-pressure both ways: the source is read only
 * as fast as the compressed bytes are taken, never buffered whole. Destroying the returned stream
 * (the kernel does when the client leaves) destroys the source too, and an iterator's `finally`
 * runs.
 *
 * @example
 * ```ts
 * response.app_iter = compressStream(response.app_iter, 'gzip', undefined);
 * ```
 */
export function compressStream(iter: AppIter, encoding: Encoding, size: number | undefined): Transform {
  const zipper = encoding === 'br' ? zlib.createBrotliCompress(brotliOptions(size)) : zlib.createGzip({ level: GZIP_LEVEL });
  // The kernel reports a failed stream (it sees the error on the zlib stream it reads): nothing to do here.
  pipeline(sourceOf(iter), zipper, ignore);
  return zipper;
}

function sourceOf(iter: AppIter): Readable {
  if (iter instanceof Readable) return iter;
  // A string or bytes given as app_iter is one chunk, as the kernel reads it.
  const one = iter as unknown;
  if (typeof one === 'string' || one instanceof Uint8Array) return Readable.from([one], { objectMode: false });
  return Readable.from(iter as Iterable<string | Uint8Array>, { objectMode: false });
}

function ignore(): void {}
