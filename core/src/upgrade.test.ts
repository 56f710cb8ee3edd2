import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createKernel, definePlugin, type ResponseInfo } from './index.ts';
import { acceptUpgrades, takeUpgrade, tapDirect } from './kit.ts';
import { handle, routes } from './fixtures/harness.ts';

const UPGRADE_HEAD = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n`;

// Sends `text` on a new connection and reads until the server closes it (bounded).
function exchange(url: string, text: string, until?: (data: string) => boolean): Promise<{ data: string; closedByServer: boolean; socket: Socket }> {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port) });
  return new Promise((resolve, reject) => {
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ data, closedByServer: false, socket });
    }, 3_000);
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      if (until?.(data) === true) {
        clearTimeout(timer);
        resolve({ data, closedByServer: false, socket });
      }
    });
    socket.once('error', reject);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ data, closedByServer: true, socket });
    });
    socket.write(text);
  });
}

// A plugin that accepts `Upgrade: echo` requests (and takes none): the server listens for upgrades.
const acceptsEcho = definePlugin({
  name: 'accepts-echo',
  apply(kernel) {
    acceptUpgrades(kernel, (req) => req.headers['upgrade'] === 'echo');
  },
});

// Node 24.9 and later let the server choose which upgrades it takes (`shouldUpgradeCallback`).
const NODE_CHOOSES_UPGRADES = typeof (createServer() as { shouldUpgradeCallback?: unknown }).shouldUpgradeCallback === 'function';

// An HTTP/2 cleartext upgrade (what `curl --http2` sends) on a POST with a JSON body.
const H2C_BODY = '{"title":"Dune","pages":412}';
const H2C_POST =
  `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(H2C_BODY)}\r\n\r\n${H2C_BODY}`;
const echoRoutes = () => routes({ '/echo': (request) => request.body.toString('utf8'), '/page': () => 'a page' });
// The status line, Connection header and body of each response in `data`, in order.
function responses(data: string): Array<{ status: string; connection: string | undefined; body: string }> {
  return [...data.matchAll(/HTTP\/1\.1 (\d{3}) [^\r]*\r\n([\s\S]*?)\r\n\r\n/g)].map((match) => {
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(`\r\n${match[2]}`)?.[1] ?? 0);
    const start = match.index + match[0].length;
    return { status: match[1]!, connection: /\r\nconnection: ([^\r]*)/i.exec(`\r\n${match[2]}`)?.[1]?.toLowerCase(), body: data.slice(start, start + length) };
  });
}

test('without a plugin that takes upgrades, a POST asking for h2c is served as any request: its body echoed, the connection kept open', async () => {
  const app = createKernel({ logger: false }).use(echoRoutes());
  const { url, server } = await app.listen({ port: 0 });
  assert.equal(server.listenerCount('upgrade'), 0);
  const { data, socket } = await exchange(url, H2C_POST, (text) => text.endsWith(H2C_BODY));
  socket.destroy();
  assert.deepEqual(responses(data), [{ status: '200', connection: 'keep-alive', body: H2C_BODY }]);
  await app.close();
});

test(`with a plugin that takes upgrades, a POST asking for an upgrade it does not accept is ${NODE_CHOOSES_UPGRADES ? 'served as any request' : 'refused with a 400 that says why'} (Node ${process.version})`, async () => {
  const app = createKernel({ logger: false }).use(acceptsEcho).use(echoRoutes());
  const { url, server } = await app.listen({ port: 0 });
  assert.equal(server.listenerCount('upgrade'), 1);
  const { data, socket } = await exchange(url, H2C_POST, (text) => text.endsWith(H2C_BODY));
  socket.destroy();
  if (NODE_CHOOSES_UPGRADES) {
    assert.deepEqual(responses(data), [{ status: '200', connection: 'keep-alive', body: H2C_BODY }]);
  } else {
    // Node hands every Upgrade request to the 'upgrade' event and leaves its body on the socket.
    const [refused, ...rest] = responses(data);
    assert.equal(refused!.status, '400');
    assert.equal(refused!.connection, 'close');
    assert.match(refused!.body, /cannot read the body of a request that asks to switch protocols \(Upgrade: h2c\) on Node v\d+/);
    assert.deepEqual(rest, []);
  }
  // A GET asking for it without a body is answered either way.
  const get = await exchange(url, 'GET /page HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n', (text) => text.endsWith('a page'));
  get.socket.destroy();
  assert.equal(responses(get.data)[0]!.status, '200');
  assert.equal(responses(get.data)[0]!.body, 'a page');
  await app.close();
});

test('an upgrade request a plugin accepts but does not take is answered as plain HTTP, and its connection ended', async () => {
  const app = createKernel({ logger: false }).use(acceptsEcho).use(routes({ '/page': () => 'a page' }));
  const { url } = await app.listen({ port: 0 });
  const page = await exchange(url, UPGRADE_HEAD('/page'));
  assert.match(page.data, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(page.data, /\r\nConnection: close\r\n/i);
  assert.ok(page.data.endsWith('\r\n\r\na page'));
  assert.equal(page.closedByServer, true);
  const missing = await exchange(url, UPGRADE_HEAD('/nowhere'));
  assert.match(missing.data, /^HTTP\/1\.1 404 Not Found\r\n/);
  assert.equal(missing.closedByServer, true);
  await app.close();
});

test('takeUpgrade() hands the connection and the bytes past the head over; the kernel writes nothing on it', async () => {
  const seen: ResponseInfo[] = [];
  let notUpgrade: unknown = 'unset';
  const taker = definePlugin({
    name: 'raw-echo',
    apply(kernel) {
      tapDirect(kernel.hooks.beforeRoute, 'raw-echo', (request) => {
        const taken = takeUpgrade(request);
        if (taken === undefined) {
          notUpgrade = takeUpgrade(request);
          return 'no upgrade';
        }
        // Taken once only.
        assert.equal(takeUpgrade(request), undefined);
        const { socket, head } = taken;
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
        socket.write(`head:${head.toString()};`);
        socket.on('data', (chunk: Buffer) => socket.end(`echo:${chunk.toString()}`));
        return 'ignored';
      });
      kernel.hooks.onResponse.tap('raw-echo', (_request, _response, info) => void seen.push(info));
    },
  });
  const app = createKernel({ logger: false }).use(acceptsEcho).use(taker);
  const { url } = await app.listen({ port: 0 });
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port) });
  let data = '';
  socket.on('data', (chunk: Buffer) => {
    data += chunk.toString('latin1');
    if (data.endsWith('head:early;')) socket.write('later');
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // The first bytes after the head arrive in the same packet: they are `head`.
  socket.write(`${UPGRADE_HEAD('/x')}early`);
  await closed;
  assert.equal(data, 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\nhead:early;echo:later');
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.status, 101);
  assert.equal(seen[0]!.completed, true);
  // A request that is not an upgrade has nothing to take (inject() included).
  assert.equal((await app.inject('/x')).body, 'no upgrade');
  assert.equal(notUpgrade, undefined);
  await app.close();
});

test('closingSignal aborts as close() begins, before in-flight requests are waited for', async () => {
  const order: string[] = [];
  let release: () => void = () => {};
  let reached: () => void = () => {};
  const inHandler = new Promise<void>((resolve) => (reached = resolve));
  const slow = definePlugin({
    name: 'slow',
    apply(kernel) {
      kernel.hooks.close.tap('slow', () => void order.push('close hook'));
      kernel.hooks.route.tap('slow', () => ({
        target: 'slow',
        handle: () =>
          new Promise<string>((resolve) => {
            release = () => resolve('done');
            reached();
          }),
      }));
    },
  });
  const app = createKernel({ logger: false }).use(slow);
  const { url } = await app.listen({ port: 0 });
  assert.equal(app.closingSignal.aborted, false);
  app.closingSignal.addEventListener('abort', () => {
    order.push('aborted');
    release();
  });
  const answer = fetch(url).then((res) => res.text());
  await inHandler;
  await app.close();
  assert.equal(await answer, 'done');
  assert.deepEqual(order, ['aborted', 'close hook']);
});
