import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Kernel } from '@hickory/core';
import { assertHealthy, listening, withTimeout } from '../security/harness.ts';

// Clients that go away in the middle of an upload or a download: temporary files and file
// descriptors return to their baseline, and the app keeps answering.

// The multipart plugin reads the temporary directory when it is applied: point it at a fresh one
// before the app is made, so its files can be counted.
const spoolDir = mkdtempSync(join(tmpdir(), 'hickory-aborts-'));
process.env['TMPDIR'] = spoolDir;
const { makeApp } = await import('../security/app.ts');

const B = '----hickoryAbort';
const MiB = 1024 * 1024;

const openFds = () => readdirSync('/proc/self/fd').length;
const tempFiles = () => readdirSync(spoolDir).length;

/** Waits (bounded: 3 s) until `read()` is at most `target`; returns the last value. */
async function settleTo(read: () => number, target: number): Promise<number> {
  let value = read();
  for (let i = 0; i < 60 && value > target; i++) {
    await new Promise((r) => setTimeout(r, 50));
    value = read();
  }
  return value;
}

/** Sends a multipart upload announcing `total` bytes, cuts the connection after `sent`. */
function abortedUpload(port: number, sent: number, total: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    const partHead = `--${B}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${total}\r\n\r\n${partHead}`,
    );
    let left = sent;
    const chunk = Buffer.alloc(64 * 1024, 'u');
    const pump = () => {
      while (left > 0) {
        left -= chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      // Give the server a moment to spool what arrived, then vanish.
      setTimeout(() => socket.destroy(), 30);
    };
    pump();
  });
}

/** Starts a download of `path`, reads `bytes` of it, then cuts the connection. */
function abortedDownload(port: number, path: string, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = 0;
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received >= bytes) socket.destroy();
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

async function completeUpload(app: Kernel): Promise<void> {
  const body = Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n`),
    Buffer.alloc(MiB, 'a'),
    Buffer.from(`\r\n--${B}--\r\n`),
  ]);
  const res = await app.inject({ method: 'POST', url: '/upload', headers: { 'content-type': `multipart/form-data; boundary=${B}` }, payload: body });
  assert.equal(res.statusCode, 200, res.body);
}

test('aborted uploads and downloads leave temporary files and file descriptors at baseline', async (t) => {
  const app = makeApp();
  const port = await listening(app);
  try {
    // Warm up every path once so lazily opened descriptors are part of the baseline.
    await completeUpload(app);
    await abortedDownload(port, '/big?size=4', 256 * 1024);
    await abortedDownload(port, '/hello.txt', 1);
    await assertHealthy(app, port, 'warm-up');
    assert.equal(await settleTo(tempFiles, 0), 0, 'a completed upload left a temporary file');
    const fdBaseline = await settleTo(openFds, 0);

    await t.test('20 uploads cut after 2 MiB of a 5 MiB body (spooled to disk)', async () => {
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, tempFiles())), 5);
      for (let i = 0; i < 20; i++) await withTimeout(abortedUpload(port, 2 * MiB, 5 * MiB), `upload ${i}`);
      clearInterval(sampler);
      assert.ok(peak > 0, 'the uploads were spooled to temporary files (else this proves nothing)');
      assert.equal(await settleTo(tempFiles, 0), 0, 'temporary files left behind');
      assert.ok((await settleTo(openFds, fdBaseline)) <= fdBaseline, `file descriptors: ${openFds()} > baseline ${fdBaseline}`);
      await assertHealthy(app, port, 'aborted uploads');
    });

    await t.test('20 uploads cut in parallel', async () => {
      await withTimeout(Promise.all(Array.from({ length: 20 }, () => abortedUpload(port, MiB, 5 * MiB))), 'parallel uploads');
      assert.equal(await settleTo(tempFiles, 0), 0, 'temporary files left behind');
      assert.ok((await settleTo(openFds, fdBaseline)) <= fdBaseline, `file descriptors: ${openFds()} > baseline ${fdBaseline}`);
      await assertHealthy(app, port, 'parallel aborted uploads');
    });

    await t.test('40 downloads cut midway (streamed and static)', async () => {
      for (let i = 0; i < 20; i++) await withTimeout(abortedDownload(port, '/big?size=32', 1 * MiB), `download ${i}`);
      await withTimeout(Promise.all(Array.from({ length: 20 }, () => abortedDownload(port, '/hello.txt', 1))), 'static downloads');
      assert.ok((await settleTo(openFds, fdBaseline)) <= fdBaseline, `file descriptors: ${openFds()} > baseline ${fdBaseline}`);
      await assertHealthy(app, port, 'aborted downloads');
    });
  } finally {
    await withTimeout(app.close(), 'close after aborts');
    rmSync(spoolDir, { recursive: true, force: true });
  }
});
