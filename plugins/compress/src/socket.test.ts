import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import { createKernel, definePlugin } from '@hickory/core';
import { tapDirect } from '@hickory/core/kit';
import { compressPlugin } from './index.ts';

const CHUNK = 16 * 1024;
// 256 MiB if it were all read: far more than any socket or zlib buffer holds.
const CHUNKS = 16 * 1024;

// A stream of text that compresses little (base64 of random bytes), so the socket fills up.
function source(progress: { chunks: number; finished: boolean }) {
  return (async function* () {
    try {
      for (let i = 0; i < CHUNKS; i++) {
        progress.chunks++;
        yield randomBytes((CHUNK * 3) / 4).toString('base64');
      }
    } finally {
      progress.finished = true;
    }
  })();
}

// An app whose every request streams `type` from `body()`, compressed; `sent.stream` is what the
// kernel is given to write (after compression).
function streamingApp(type: string, body: () => AsyncIterable<string>, sent: { stream?: Readable } = {}) {
  const route = definePlugin({
    name: 'stream',
    apply(kernel) {
      kernel.hooks.route.tap('stream', () => ({
        target: 'stream',
        handle: (_request, response) => {
          response.content_type = type;
          response.app_iter = body();
        },
      }));
      tapDirect(kernel.hooks.beforeSend, 'capture', (_request, response) => void (sent.stream = response.app_iter as Readable), { stage: 2000 });
    },
  });
  return createKernel({ logger: false }).use(route).use(compressPlugin);
}

test('a slow reader: the source is paused by back-pressure, and the zlib stream and the source are destroyed when the client leaves', async (t) => {
  const progress = { chunks: 0, finished: false };
  const sent: { stream?: Readable } = {};
  const app = streamingApp('text/plain', () => source(progress), sent);
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write('GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n');
  // Read the head, then stop reading.
  const head = await new Promise<string>((resolve) => {
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve(chunk.toString('latin1'));
    });
  });
  assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(head, /\r\ncontent-encoding: gzip\r\n/i);
  assert.match(head, /\r\ntransfer-encoding: chunked\r\n/i);
  // Wait for the buffers on the way to fill (a busy machine takes a while to produce and gzip).
  let seen = -1;
  for (let i = 0; i < 40 && progress.chunks !== seen; i++) {
    seen = progress.chunks;
    await sleep(250);
  }
  const paused = progress.chunks;
  await sleep(750);
  // Nothing more was read from the source while the client read nothing...
  assert.equal(progress.chunks, paused);
  // ...and what was read is what the buffers on the way hold, not the whole body (256 MiB).
  assert.ok(paused * CHUNK < 32 * 1024 * 1024, `${paused} chunks of 16 KiB were read`);
  assert.equal(progress.finished, false);
  t.diagnostic(`the source was paused after ${paused} chunks (${((paused * CHUNK) / 1024 / 1024).toFixed(1)} MiB of ${(CHUNKS * CHUNK) / 1024 / 1024} MiB)`);
  assert.ok(sent.stream !== undefined && !sent.stream.destroyed);
  socket.destroy();
  for (let i = 0; i < 100 && !progress.finished; i++) await sleep(20);
  assert.equal(progress.finished, true, "the source's finally ran");
  assert.equal(sent.stream.destroyed, true, 'the zlib stream was destroyed');
  await app.close();
});

test('a reader that keeps up gets the whole stream, which gunzips to what was produced', async () => {
  let produced = '';
  const app = streamingApp('application/json', async function* () {
    yield '[';
    for (let i = 0; i < 2000; i++) {
      const item = `${i === 0 ? '' : ','}{"id":${i},"pad":"${randomBytes(24).toString('hex')}"}`;
      produced += item;
      yield item;
    }
    yield ']';
  });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  // fetch would decode it itself: read the raw bytes through node:http instead.
  const { request } = await import('node:http');
  const body = await new Promise<string>((resolve, reject) => {
    request(`${url}/items`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      assert.equal(res.headers['content-encoding'], 'gzip');
      assert.equal(res.headers.vary, 'Accept-Encoding');
      const chunks: Buffer[] = [];
      res.pipe(createGunzip()).on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks).toString())).on('error', reject);
    })
      .on('error', reject)
      .end();
  });
  assert.equal(body, `[${produced}]`);
  assert.equal((JSON.parse(body) as unknown[]).length, 2000);
  await app.close();
});
