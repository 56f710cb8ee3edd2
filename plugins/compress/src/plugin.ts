import { definePlugin, type Request, type Response } from '@hickory/core';
import { answerConditional, tapDirect, varyOn } from '@hickory/core/kit';
import { chooseEncoding } from './accept-encoding.ts';
import { isCompressible } from './compressible.ts';
import { checkOptions, type CompressOptions, type CompressSettings, type Encoding } from './options.ts';
import { compressBuffer, compressStream } from './zlib.ts';

// After every other beforeSend tap (the application's `after` hooks, other plugins' headers and
// bodies): what is compressed is the response as it will be sent.
const LAST = 1000;
// Accept-Encoding values clients send are few: each one's choice is remembered (a bounded number).
const MAX_REMEMBERED = 64;

/**
 * Compresses responses with br or gzip (node:zlib), chosen by the client's `Accept-Encoding`
 * (q-values, `identity`, `*`), for textual types (text, JSON, JavaScript, SVG, XML) — handlers'
 * answers, errors, and `@hickory/static`'s files alike, since every response passes `beforeSend`.
 * A buffered body is compressed whole off the event loop; a streamed one (`app_iter`: a Node
 * stream, an iterable or an async iterable) through a zlib stream with back-pressure. Such
 * answers carry `Vary: Accept-Encoding` whether or not this client gets them compressed.
 * Left as they are: 204, 304, 206 and other non-2xx-with-body cases below, a body under
 * `threshold` bytes, one with a `Content-Encoding` already, and `Cache-Control: no-transform`.
 * A HEAD request is never compressed: as fastify (with `@fastify/compress`) answers it, it gets the
 * headers of the uncompressed answer — its `Content-Length`, no `Content-Encoding` — which is what
 * a GET without `Accept-Encoding` gets, plus `Vary: Accept-Encoding`.
 * A compressed answer's `ETag` is made weak (`W/`), `Content-Length` is the compressed one (or
 * none for a stream) and `Accept-Ranges` goes (ranges would count the uncompressed bytes).
 *
 * @example
 * ```ts
 * createKernel({ root }).use(dispatchPlugin).use(compressPlugin, { threshold: 1024, encodings: ['br', 'gzip'] });
 * ```
 */
export const compressPlugin = definePlugin<CompressOptions | undefined>({
  name: 'compress',
  apply(kernel, options) {
    const settings = checkOptions(options);
    const choices = new Map<string, Encoding | false>();
    const choose = (header: string): Encoding | undefined => {
      const known = choices.get(header);
      if (known !== undefined) return known === false ? undefined : known;
      const chosen = chooseEncoding(header, settings.encodings);
      if (choices.size < MAX_REMEMBERED) choices.set(header, chosen ?? false);
      return chosen;
    };
    tapDirect(kernel.hooks.beforeSend, 'compress', (request, response) => compress(request, response, settings, choose, kernel.config.etag), { stage: LAST });
  },
});

function compress(
  request: Request,
  response: Response,
  settings: CompressSettings,
  choose: (header: string) => Encoding | undefined,
  etag: boolean,
): Promise<void> | undefined {
  if (!transformable(response)) return undefined;
  const headers = response.headerMap;
  const body = response.body;
  const iter = response.app_iter;
  // A string body without a type is sent as HTML (the kernel's default), bytes as octets.
  const type = headers.get('content-type') ?? (typeof body === 'string' ? 'text/html' : undefined);
  if (type === undefined || !isCompressible(typeof type === 'string' ? type : type[0]!)) return undefined;
  const size = iter === undefined ? (body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) : declaredSize(headers.get('content-length'));
  if (iter === undefined && size === 0) return undefined;
  // From here the answer depends on Accept-Encoding, for this client or the next one.
  varyOn(response, 'Accept-Encoding');
  // HEAD: the uncompressed answer's headers, as fastify gives them (see above): no work at all.
  if (request.method === 'HEAD' || (size !== undefined && size < settings.threshold)) return undefined;
  const accepted = request.raw.headers['accept-encoding'];
  const encoding = accepted === undefined ? undefined : choose(accepted);
  if (encoding === undefined) return undefined;
  if (iter === undefined) {
    // The tag is the identity body's (one weak tag for every coding, as Express with compression
    // gives), and a 304 is answered before compressing anything.
    answerConditional(request, response, etag);
    if (response.status === 304) return undefined;
  }
  encoded(response, encoding);
  if (iter !== undefined) {
    response.app_iter = compressStream(iter, encoding, size);
    return undefined;
  }
  const bytes = typeof body === 'string' ? Buffer.from(body) : body!;
  return compressBuffer(bytes, encoding).then((compressed) => {
    response.body = compressed;
  });
}

// Statuses with a body that is the resource itself: 200 and other 2xx but 204 and 206 (a range
// counts the identity bytes), and errors (an error page compresses like any page). 1xx, 204,
// 304 and 3xx redirects carry no body worth it.
function transformable(response: Response): boolean {
  const status = response.status;
  if (status === 204 || status === 206 || status === 304 || status < 200 || (status >= 300 && status < 400)) return false;
  if (!response.hasBody) return false;
  const headers = response.headerMap;
  if (headers.hasKey('content-range')) return false;
  const encoding = headers.get('content-encoding');
  if (encoding !== undefined && String(encoding).trim().toLowerCase() !== 'identity') return false;
  const cacheControl = headers.get('cache-control');
  return cacheControl === undefined || !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(cacheControl));
}

function encoded(response: Response, encoding: Encoding): void {
  const headers = response.headerMap;
  headers.setKnown('content-encoding', 'Content-Encoding', encoding);
  headers.delete('content-length');
  headers.delete('accept-ranges');
  // A strong tag promises these exact bytes; the compressed ones are another series.
  const tag = headers.get('etag');
  if (typeof tag === 'string' && !tag.startsWith('W/')) headers.set('ETag', `W/${tag}`);
}

function declaredSize(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value);
}
