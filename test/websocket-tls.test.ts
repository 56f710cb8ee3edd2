// WebSockets over TLS: `listen({ tls })` upgrades wss:// connections, and so does
// `listen({ tls, http2: true })` for the HTTP/1.1 clients ALPN lets through (a WebSocket handshake is
// HTTP/1.1; RFC 8441's WebSockets over HTTP/2 are not offered, so a browser falls back to HTTP/1.1).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin } from '@hickory/dispatch';
import { websocket, websocketPlugin } from '@hickory/websocket';
import { WebSocket } from 'ws';
import { selfSigned } from './fixtures/proxy/nginx.ts';

let dir = '';
let tls: { key: string; cert: string };

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hickory-wss-'));
  const { certificate, key } = await selfSigned(dir, 'localhost');
  tls = { key: await readFile(key, 'utf8'), cert: await readFile(certificate, 'utf8') };
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

class Root {
  @websocket() echo(socket: WebSocket) {
    socket.on('message', (data: Buffer) => socket.send(`tls:${data.toString()}`));
  }
}

for (const http2 of [false, true]) {
  test(`wss:// echoes on listen({ tls${http2 ? ', http2: true' : ''} })`, async () => {
    const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(websocketPlugin, { pingInterval: 0 });
    const { url } = await app.listen({ port: 0, tls, http2 });
    assert.match(url, /^https:/);
    const socket = new WebSocket(`${url.replace(/^https/, 'wss')}/echo`, { ca: tls.cert, handshakeTimeout: 5_000 });
    const echo = await new Promise<string>((resolve, reject) => {
      socket.once('open', () => socket.send('hello'));
      socket.once('message', (data: Buffer) => resolve(data.toString()));
      socket.once('error', reject);
    });
    assert.equal(echo, 'tls:hello');
    const code = new Promise<number>((resolve) => socket.once('close', (closeCode: number) => resolve(closeCode)));
    await app.close();
    assert.equal(await code, 1001);
  });
}
