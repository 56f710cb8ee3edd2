import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type InputType, type ZlibOptions } from 'node:zlib';
import { HTTPError } from './http-error.ts';

type Decoder = (input: InputType, options: ZlibOptions) => Promise<Buffer>;

const DECODERS: Readonly<Record<string, Decoder>> = Object.freeze({
  gzip: promisify(gunzip) as Decoder,
  'x-gzip': promisify(gunzip) as Decoder,
  deflate: promisify(inflate) as Decoder,
  br: promisify(brotliDecompress) as Decoder,
});

// Layers decoded at most (`gzip, br` is two): more is no real client, only work for the server.
const MAX_LAYERS = 2;
const PRINTABLE = /^[\w.+-]{1,32}$/;

/**
 * Decodes a request body sent with `Content-Encoding` (`gzip`, `deflate`, `br`, and a list of
 * them, undone last first), holding the decoded bytes to the same `limit` as the body itself:
 * past it → 413, so a small compressed body cannot expand into a large one (a "zip bomb"). An
 * encoding it does not know → 415 naming it; bytes that do not decode → 400.
 *
 * @example
 * ```ts
 * const bytes = await decodeContent(received, req.headers['content-encoding'], 1024 * 1024);
 * ```
 */
export async function decodeContent(body: Buffer, contentEncoding: string | undefined, limit: number): Promise<Buffer> {
  const layers = checkContentEncoding(contentEncoding);
  let bytes = body;
  for (const name of layers.reverse()) {
    try {
      bytes = await DECODERS[name]!(bytes, { maxOutputLength: limit });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new HTTPError(413, `The request body is larger than the limit of ${limit} bytes once decoded (${name}).`, { Connection: 'close' });
      }
      throw new HTTPError(400, `The request body is not valid ${name} data.`);
    }
  }
  return bytes;
}

/**
 * The encodings of a `Content-Encoding` header, in the order they were applied, after checking
 * that each can be decoded (415 naming the first that cannot). Empty for none or `identity`.
 *
 * @example
 * ```ts
 * checkContentEncoding('gzip'); // ['gzip']
 * checkContentEncoding('compress'); // throws HTTPError 415
 * ```
 */
export function checkContentEncoding(contentEncoding: string | undefined): string[] {
  const layers = encodingsOf(contentEncoding);
  if (layers.length > MAX_LAYERS) throw new HTTPError(415, `A body encoded ${layers.length} times over is not accepted (at most ${MAX_LAYERS} encodings).`);
  for (const name of layers) if (DECODERS[name] === undefined) throw unsupported(name);
  return layers;
}

/**
 * Throws the 415 for a `Content-Encoding` that a consumer of the raw stream (such as a multipart
 * parser) cannot undo; `identity` or no header is fine.
 *
 * @example
 * ```ts
 * refuseContentEncoding(req.headers['content-encoding'], 'a multipart body');
 * ```
 */
export function refuseContentEncoding(contentEncoding: string | undefined, what: string): void {
  const layers = encodingsOf(contentEncoding);
  if (layers.length > 0) throw new HTTPError(415, `${what} cannot be sent with Content-Encoding ${show(layers[0]!)}: send it unencoded.`);
}

function encodingsOf(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity');
}

function unsupported(name: string): HTTPError {
  return new HTTPError(415, `Content-Encoding ${show(name)} is not supported: send the body unencoded, or as gzip, deflate or br.`);
}

function show(name: string): string {
  return PRINTABLE.test(name) ? `"${name}"` : 'of this kind';
}
