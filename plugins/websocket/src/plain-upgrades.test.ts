// With websocketPlugin on, a request that asks for another upgrade (HTTP/2 cleartext's
// `Upgrade: h2c`, which `curl --http2` sends) is no WebSocket: it is served as a plain request
// where Node lets the server choose (24.9 and later), else refused with a 400 that says why
// (docs/live.md). WebSockets on the same app are unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createKernel, request as current } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import type { WebSocket } from 'ws';
import { connectTo, nextMessage } from './fixtures/clients.ts';
import { websocket, websocketPlugin } from './index.ts';

const NODE_CHOOSES_UPGRADES = typeof (createServer() as { shouldUpgradeCallback?: unknown }).shouldUpgradeCallback === 'function';

class Root {
  @websocket() echo(socket: WebSocket) {
    socket.on('message', (data: Buffer) => socket.send(data.toString()));
  }
  // The body as it came.
  @expose() books() {
    return current.body.toString('utf8');
  }
  @expose() page() {
    return 'a page';
  }
}

// One request on its own connection (no agent), with `headers` and `body`; bounded.
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false, timeout: 5_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

const BODY = '{"title":"Dune","pages":412}';
const H2C = { Connection: 'Upgrade, HTTP2-Settings', Upgrade: 'h2c', 'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA', 'Content-Type': 'application/json' };

test(`with websocketPlugin, a POST asking for h2c at a plain route is ${NODE_CHOOSES_UPGRADES ? 'served: its body echoed' : 'refused 400, saying why'} (Node ${process.version}); WebSockets still open`, async () => {
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(websocketPlugin, { pingInterval: 0 });
  const { url, server } = await app.listen({ port: 0 });
  try {
    assert.equal(server.listenerCount('upgrade'), 1);
    const answer = await send(`${url}/books`, 'POST', H2C, BODY);
    if (NODE_CHOOSES_UPGRADES) {
      assert.equal(answer.status, 200);
      assert.equal(answer.body, BODY);
      assert.equal(answer.headers['connection'], 'keep-alive');
    } else {
      assert.equal(answer.status, 400);
      assert.equal(answer.headers['connection'], 'close');
      assert.match(answer.body, /cannot read the body of a request that asks to switch protocols \(Upgrade: h2c\) on Node v\d+[^:]*: send it without the Upgrade header, or serve the app on Node 24\.9 or later/);
    }
    // The same without a body: served on every Node line.
    const plain = await send(`${url}/page`, 'GET', { Connection: 'Upgrade', Upgrade: 'h2c' });
    assert.deepEqual([plain.status, plain.body], [200, 'a page']);
    // A POST that asks for a WebSocket is no handshake: refused by the endpoint, never upgraded.
    const posted = await send(`${url}/echo`, 'POST', { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' });
    assert.equal(posted.status, 405);
    assert.equal(posted.headers['allow'], 'GET');
    const opened = await connectTo(`${url.replace(/^http/, 'ws')}/echo`);
    assert.ok('socket' in opened);
    opened.socket.send('still here');
    assert.equal(await nextMessage(opened.socket), 'still here');
    opened.socket.close();
  } finally {
    await app.close();
  }
});

test('without websocketPlugin, the server does not listen for upgrades: a POST asking for h2c is served, its body echoed', async () => {
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  const { url, server } = await app.listen({ port: 0 });
  try {
    assert.equal(server.listenerCount('upgrade'), 0);
    const answer = await send(`${url}/books`, 'POST', H2C, BODY);
    assert.deepEqual([answer.status, answer.body, answer.headers['connection']], [200, BODY, 'keep-alive']);
  } finally {
    await app.close();
  }
});
