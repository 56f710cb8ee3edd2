// The two apps of `npm run bench:compress` (benchmarks/compress.ts), started as the benchmark
// starts them but unpinned, answer the same document, br-compressed, once. No timing here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

const SCRIPT = fileURLToPath(new URL('./compress.ts', import.meta.url));

async function answer(kind: 'hickory' | 'fastify'): Promise<{ encoding: string | null; vary: string | null; body: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SCRIPT, 'server', kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code})`)));
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    });
    // fetch would decode the body itself: read the bytes as sent.
    const { request } = await import('node:http');
    return await new Promise((resolve, reject) => {
      request(`http://127.0.0.1:${port}/data`, { headers: { 'accept-encoding': 'br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ encoding: res.headers['content-encoding'] ?? null, vary: String(res.headers.vary), body: brotliDecompressSync(Buffer.concat(chunks)).toString() }),
        );
      })
        .on('error', reject)
        .end();
    });
  } finally {
    child.kill();
  }
}

test('the compression benchmark apps answer the same 64 KB JSON document, br-compressed', async () => {
  const hickory = await answer('hickory');
  const fastify = await answer('fastify');
  assert.equal(hickory.encoding, 'br');
  assert.equal(fastify.encoding, 'br');
  assert.equal(hickory.vary, 'Accept-Encoding');
  assert.equal(hickory.body, fastify.body);
  assert.ok(hickory.body.length >= 64 * 1024 && hickory.body.length < 66 * 1024, `${hickory.body.length} bytes`);
  assert.ok(Array.isArray(JSON.parse(hickory.body)));
});
