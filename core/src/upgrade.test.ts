import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { createKernel, definePlugin, type ResponseInfo } from './index.ts';
import { takeUpgrade, tapDirect } from './kit.ts';
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

test('an upgrade request no plugin takes is answered as plain HTTP, and its connection ended', async () => {
  const app = createKernel({ logger: false }).use(routes({ '/page': () => 'a page' }));
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
  const app = createKernel({ logger: false }).use(taker);
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
