import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createKernel, definePlugin, Response, type Request } from '@hickory/core';
import { COMPRESS_ERRORS, compressPlugin, type CompressOptions } from './index.ts';

const JSON_BODY = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `book ${i}`, tags: ['a', 'b'] })));
const TEXT = 'hickory '.repeat(400);

type Handler = (request: Request, response: Response) => unknown;

function routes(table: Record<string, Handler>) {
  return definePlugin({
    name: 'test-routes',
    apply(kernel) {
      kernel.hooks.route.tap('test-routes', (request) => {
        const handler = Object.hasOwn(table, request.path) ? table[request.path] : undefined;
        return handler ? { target: request.path, handle: handler } : undefined;
      });
    },
  });
}

const ROUTES: Record<string, Handler> = {
  '/json': (_q, r) => {
    r.content_type = 'application/json';
    return JSON_BODY;
  },
  '/html': () => TEXT,
  '/small': (_q, r) => {
    r.content_type = 'application/json';
    return '{"a":1}';
  },
  '/png': (_q, r) => {
    r.content_type = 'image/png';
    return Buffer.alloc(4096, 7);
  },
  '/problem': () => new Response({ body: JSON_BODY, status: 422, content_type: 'application/problem+json' }),
  '/encoded': (_q, r) => {
    r.headers['Content-Encoding'] = 'gzip';
    r.content_type = 'text/plain';
    return Buffer.from(TEXT);
  },
  '/no-transform': (_q, r) => {
    r.headers['Cache-Control'] = 'public, no-transform';
    return TEXT;
  },
  '/tagged': (_q, r) => {
    r.headers['ETag'] = '"v1"';
    r.headers['Vary'] = 'accept-encoding';
    return TEXT;
  },
  '/varied': (_q, r) => {
    r.headers['Vary'] = 'Cookie';
    return TEXT;
  },
  '/empty': () => '',
  '/stream': (_q, r) => {
    r.content_type = 'text/plain';
    r.app_iter = (async function* () {
      for (let i = 0; i < 50; i++) yield `line ${i} `.repeat(20) + '\n';
    })();
  },
  '/short-stream': (_q, r) => {
    r.content_type = 'text/plain';
    r.headers['Content-Length'] = '5';
    r.app_iter = Readable.from(['hello']);
  },
  '/events': (_q, r) => {
    r.content_type = 'text/event-stream';
    r.app_iter = [`data: ${TEXT}\n\n`];
  },
};

function app(options?: CompressOptions, config: Record<string, unknown> = {}) {
  return createKernel({ logger: false, ...config }).use(routes(ROUTES)).use(compressPlugin, options);
}

function decoded(encoding: string | undefined, raw: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return gunzipSync(raw).toString();
  return raw.toString();
}

test('br or gzip by Accept-Encoding: the body decodes to exactly the original, Content-Length is the compressed size', async () => {
  const kernel = app();
  const cases: Array<[string, string | undefined]> = [
    ['gzip, deflate, br, zstd', 'br'], // ties go to the server's order, whatever the client's
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['BR', 'br'],
    ['deflate', undefined],
    ['identity', undefined],
    ['gzip;q=0.2, identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['gzip;q=2', undefined], // a malformed q drops its entry
    ['', undefined],
  ];
  for (const [accept, expected] of cases) {
    const res = await kernel.inject({ url: '/json', headers: { 'accept-encoding': accept } });
    assert.equal(res.statusCode, 200, accept);
    assert.equal(res.headers['content-encoding'], expected, accept);
    assert.equal(res.headers.vary, 'Accept-Encoding', accept);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', accept);
    assert.equal(Number(res.headers['content-length']), res.rawPayload.length, accept);
    assert.equal(decoded(expected, res.rawPayload), JSON_BODY, accept);
    if (expected !== undefined) assert.ok(res.rawPayload.length < JSON_BODY.length / 4, `${accept}: ${res.rawPayload.length} bytes`);
  }
  const none = await kernel.inject('/json');
  assert.equal(none.headers['content-encoding'], undefined);
  assert.equal(none.headers.vary, 'Accept-Encoding');
  assert.equal(none.body, JSON_BODY);
  await kernel.close();
});

test('only textual types, only bodies at or over the threshold, never 204/304, an encoded body or no-transform', async () => {
  const kernel = app();
  const get = (url: string, headers: Record<string, string> = {}) => kernel.inject({ url, headers: { 'accept-encoding': 'br, gzip', ...headers } });
  const html = await get('/html');
  assert.equal(html.headers['content-encoding'], 'br');
  assert.equal(decoded('br', html.rawPayload), TEXT);
  const problem = await get('/problem');
  assert.equal(problem.statusCode, 422);
  assert.equal(problem.headers['content-encoding'], 'br');
  assert.equal(decoded('br', problem.rawPayload), JSON_BODY);
  const png = await get('/png');
  assert.equal(png.headers['content-encoding'], undefined);
  assert.equal(png.headers.vary, undefined);
  assert.equal(png.rawPayload.length, 4096);
  const small = await get('/small');
  assert.equal(small.headers['content-encoding'], undefined);
  assert.equal(small.headers.vary, 'Accept-Encoding');
  assert.equal(small.body, '{"a":1}');
  const encoded = await get('/encoded');
  assert.equal(encoded.headers['content-encoding'], 'gzip');
  assert.equal(encoded.body, TEXT); // the handler's own bytes, untouched (they are not really gzip)
  const fixed = await get('/no-transform');
  assert.equal(fixed.headers['content-encoding'], undefined);
  assert.equal(fixed.body, TEXT);
  const empty = await get('/empty');
  assert.equal(empty.statusCode, 204);
  assert.equal(empty.headers['content-encoding'], undefined);
  const events = await get('/events');
  assert.equal(events.headers['content-encoding'], undefined);
  assert.equal(events.body, `data: ${TEXT}\n\n`);
  const missing = await get('/nowhere');
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.headers['content-encoding'], undefined); // a small error page
  await kernel.close();
});

test('threshold and encodings options', async () => {
  const all = app({ threshold: 0, encodings: ['gzip'] });
  const small = await all.inject({ url: '/small', headers: { 'accept-encoding': 'br, gzip' } });
  assert.equal(small.headers['content-encoding'], 'gzip');
  assert.equal(decoded('gzip', small.rawPayload), '{"a":1}');
  assert.equal((await all.inject({ url: '/json', headers: { 'accept-encoding': 'br' } })).headers['content-encoding'], undefined);
  await all.close();
  const high = app({ threshold: 100_000 });
  assert.equal((await high.inject({ url: '/json', headers: { 'accept-encoding': 'br' } })).headers['content-encoding'], undefined);
  await high.close();
});

test('Vary is merged, never duplicated; a strong ETag becomes weak; the kernel ETag is the identity body\'s', async () => {
  const kernel = app();
  const tagged = await kernel.inject({ url: '/tagged', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(tagged.headers.vary, 'accept-encoding');
  assert.equal(tagged.headers.etag, 'W/"v1"');
  const varied = await kernel.inject({ url: '/varied', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(varied.headers.vary, 'Cookie, Accept-Encoding');
  const br = await kernel.inject({ url: '/json', headers: { 'accept-encoding': 'br' } });
  const gzip = await kernel.inject({ url: '/json', headers: { 'accept-encoding': 'gzip' } });
  const plain = await kernel.inject('/json');
  assert.match(String(plain.headers.etag), /^W\/"[0-9a-f]+-[\w-]+"$/);
  assert.equal(br.headers.etag, plain.headers.etag);
  assert.equal(gzip.headers.etag, plain.headers.etag);
  // A matching If-None-Match: 304 with no body, before anything is compressed.
  const again = await kernel.inject({ url: '/json', headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.rawPayload.length, 0);
  assert.equal(again.headers['content-encoding'], undefined);
  assert.equal(again.headers.vary, 'Accept-Encoding');
  assert.equal(again.headers.etag, plain.headers.etag);
  await kernel.close();
  const untagged = app(undefined, { etag: false });
  assert.equal((await untagged.inject({ url: '/json', headers: { 'accept-encoding': 'br' } })).headers.etag, undefined);
  await untagged.close();
});

test('HEAD is never compressed: the uncompressed answer\'s headers, as fastify gives them, and Vary', async () => {
  const kernel = app();
  const plain = await kernel.inject('/json');
  const head = await kernel.inject({ method: 'HEAD', url: '/json', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(head.statusCode, 200);
  assert.equal(head.rawPayload.length, 0);
  assert.equal(head.headers['content-encoding'], undefined);
  assert.equal(head.headers['content-length'], String(JSON_BODY.length));
  assert.equal(head.headers.vary, 'Accept-Encoding');
  assert.equal(head.headers.etag, plain.headers.etag);
  assert.equal(head.headers['content-type'], plain.headers['content-type']);
  const stream = await kernel.inject({ method: 'HEAD', url: '/stream', headers: { 'accept-encoding': 'br' } });
  assert.equal(stream.headers['content-encoding'], undefined);
  assert.equal(stream.headers.vary, 'Accept-Encoding');
  assert.equal(stream.rawPayload.length, 0);
  await kernel.close();
});

test('streamed bodies are compressed as a stream; one declared under the threshold is not', async () => {
  const kernel = app();
  const expected = Array.from({ length: 50 }, (_, i) => `line ${i} `.repeat(20) + '\n').join('');
  for (const encoding of ['br', 'gzip']) {
    const res = await kernel.inject({ url: '/stream', headers: { 'accept-encoding': encoding } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], encoding);
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(res.headers.vary, 'Accept-Encoding');
    assert.equal(decoded(encoding, res.rawPayload), expected);
  }
  const short = await kernel.inject({ url: '/short-stream', headers: { 'accept-encoding': 'br' } });
  assert.equal(short.headers['content-encoding'], undefined);
  assert.equal(short.headers['content-length'], '5');
  assert.equal(short.body, 'hello');
  await kernel.close();
});

test('a compressing tap runs after the other beforeSend taps, whatever the order of use()', async () => {
  const late = definePlugin({
    name: 'late-body',
    apply(kernel) {
      kernel.hooks.beforeSend.tap('late-body', (_request, response) => {
        response.body = `${TEXT}!`;
      });
    },
  });
  const kernel = createKernel({ logger: false }).use(routes(ROUTES)).use(compressPlugin).use(late);
  const res = await kernel.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(res.headers['content-encoding'], 'gzip');
  assert.equal(decoded('gzip', res.rawPayload), `${TEXT}!`);
  await kernel.close();
});

test('bad options fail ready(), with a coded error naming the option', async () => {
  const bad: Array<[unknown, RegExp]> = [
    [{ threshold: -1 }, /"threshold" must be a byte count/],
    [{ threshold: '1kb' }, /"threshold" must be a byte count/],
    [{ encodings: [] }, /"encodings" must be a non-empty list/],
    [{ encodings: ['deflate'] }, /"encodings" has "deflate": only "br" and "gzip"/],
    [{ encodings: ['br', 'br'] }, /names a coding twice/],
    [{ level: 9 }, /"level" is unknown \(known: threshold, encodings\)/],
  ];
  for (const [options, message] of bad) {
    await assert.rejects(createKernel({ logger: false }).use(compressPlugin, options as CompressOptions).ready(), { code: 'HICKORY_ERR_COMPRESS_OPTION', message }, JSON.stringify(options));
  }
  assert.deepEqual(Object.keys(COMPRESS_ERRORS), ['HICKORY_ERR_COMPRESS_OPTION']);
});
