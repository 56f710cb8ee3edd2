import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { abort, createKernel, request as current, type KernelConfig, type Request } from '@hickory/core';
import { dispatchPlugin, expose, routeMap } from '@hickory/dispatch';
import { Hook, hooksPlugin, secure, SecureController, TransactionHook, type HookState } from '@hickory/hooks';
import type { WebSocket } from 'ws';
import { closed, connectTo, nextMessage, openSocket } from './fixtures/clients.ts';
import { websocket, websocketPlugin, WEBSOCKET_ERRORS, type WebsocketOptions } from './index.ts';

const events: string[] = [];

class Guarded extends SecureController {
  static override check_permissions(request: Request): boolean {
    return request.headers['authorization'] === 'Bearer ok';
  }
  @websocket() feed(socket: WebSocket) {
    socket.send('secret feed');
  }
}

class Root {
  @websocket() echo(socket: WebSocket) {
    events.push(`handler ${current.path}`);
    socket.on('message', (data: Buffer, binary: boolean) => socket.send(data, { binary }));
  }
  @secure((request: Request) => request.headers['authorization'] === 'Bearer ok')
  @websocket()
  private_room(socket: WebSocket) {
    socket.send('welcome');
  }
  guarded = new Guarded();
  @websocket() throws() {
    throw new Error('the handler failed');
  }
  @websocket() async rejects() {
    await Promise.resolve();
    throw new Error('the async handler failed');
  }
  @websocket() listener_throws(socket: WebSocket) {
    socket.on('message', () => {
      throw new Error('a listener failed');
    });
  }
  @websocket() listener_rejects(socket: WebSocket) {
    socket.on('message', async () => {
      await Promise.resolve();
      throw new Error('an async listener failed');
    });
  }
  @websocket() silent() {}
  @expose() page() {
    return 'a page';
  }
}

// `on_route` refuses /forbidden-*; `before` records that it ran before the handler.
class Gate extends Hook {
  override on_route(state: HookState) {
    if (state.request.path.startsWith('/forbidden')) abort(403);
  }
  override before(state: HookState) {
    events.push(`before ${state.request.path}`);
  }
}

async function start(options: WebsocketOptions = {}, config: KernelConfig = {}) {
  const errors: unknown[] = [];
  const logger = { info() {}, warn() {}, error: (_message: string, error: unknown) => void errors.push(error) };
  const app = createKernel({ root: new Root(), hooks: [new Gate()], logger, ...config })
    .use(dispatchPlugin)
    .use(hooksPlugin)
    .use(websocketPlugin, { pingInterval: 0, ...options });
  const { url } = await app.listen({ port: 0 });
  return { app, http: url, ws: url.replace(/^http/, 'ws'), errors };
}

test('a @websocket() method receives the socket once upgraded: text and binary echoes', async () => {
  events.length = 0;
  const { app, ws } = await start();
  const socket = await openSocket(`${ws}/echo`);
  socket.send('hello');
  assert.equal(await nextMessage(socket), 'hello');
  const binary = new Promise<[Buffer, boolean]>((resolve) => socket.once('message', (data: Buffer, isBinary: boolean) => resolve([data, isBinary])));
  socket.send(Buffer.from([0, 1, 2, 255]));
  assert.deepEqual(await binary, [Buffer.from([0, 1, 2, 255]), true]);
  // The hooks ran first, and the handler ran in the upgrade request's context.
  assert.deepEqual(events, ['before /echo', 'handler /echo']);
  const ending = closed(socket);
  socket.close(1000, 'bye');
  assert.equal((await ending).code, 1000);
  await app.close();
});

test('refusals are answered with their HTTP status, never upgraded: guards, on_route hooks, unknown paths', async () => {
  events.length = 0;
  const { app, ws, http } = await start();
  const refusedStatus = async (path: string, headers?: Record<string, string>) => {
    const opened = await connectTo(`${ws}${path}`, headers === undefined ? {} : { headers });
    assert.ok('refused' in opened, `${path} was upgraded`);
    return opened.refused;
  };
  assert.equal((await refusedStatus('/private_room')).status, 401);
  assert.equal((await refusedStatus('/guarded/feed')).status, 401);
  assert.equal((await refusedStatus('/forbidden-room')).status, 403);
  assert.equal((await refusedStatus('/nowhere')).status, 404);
  // A websocket method takes no path argument.
  assert.equal((await refusedStatus('/echo/extra')).status, 404);
  // A route that is not a websocket answers its page and ends the connection.
  const page = await refusedStatus('/page');
  assert.equal(page.status, 200);
  assert.equal(page.body, 'a page');
  // The guards let an authorized client through.
  const allowed = await openSocket(`${ws}/private_room`, { headers: { Authorization: 'Bearer ok' } });
  assert.equal(await nextMessage(allowed), 'welcome');
  allowed.terminate();
  const feed = await openSocket(`${ws}/guarded/feed`, { headers: { Authorization: 'Bearer ok' } });
  assert.equal(await nextMessage(feed), 'secret feed');
  feed.terminate();
  // No handler of a refused request ran.
  assert.deepEqual(
    events.filter((e) => e.startsWith('handler')),
    [],
  );
  // Without an upgrade: 426 with `Upgrade: websocket`.
  const plain = await fetch(`${http}/echo`);
  assert.equal(plain.status, 426);
  assert.equal(plain.headers.get('upgrade'), 'websocket');
  assert.equal((await app.inject('/echo')).statusCode, 426);
  await app.close();
});

test('a handshake ws would refuse is refused through the kernel: bad key 400, bad version 426', async () => {
  const { app, http } = await start();
  const head = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' };
  const { request } = await import('node:http');
  const answer = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${http}/echo`, { headers });
      req.once('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.once('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode!);
      });
      req.once('error', reject);
      req.end();
    });
  assert.equal(await answer({ ...head, 'Sec-WebSocket-Key': 'short' }), 400);
  assert.equal(await answer({ ...head, 'Sec-WebSocket-Version': '7' }), 426);
  assert.equal(await answer(head), 101);
  await app.close();
});

test('Origin: only the request\'s own by default; allowedOrigins as a list or a function; refused with 403 before the upgrade', async () => {
  const own = await start();
  const port = new URL(own.http).port;
  const other = await connectTo(`${own.ws}/echo`, { origin: 'http://127.0.0.1:1' });
  assert.ok('refused' in other);
  assert.equal(other.refused.status, 403);
  assert.match(other.refused.body, /Origin http:\/\/127\.0\.0\.1:1 may not open a WebSocket here/);
  (await openSocket(`${own.ws}/echo`, { origin: `http://127.0.0.1:${port}` })).terminate();
  // No Origin: not a browser.
  (await openSocket(`${own.ws}/echo`)).terminate();
  await own.app.close();

  const listed = await start({ allowedOrigins: ['https://App.Example.com:443'] });
  (await openSocket(`${listed.ws}/echo`, { origin: 'https://app.example.com' })).terminate();
  const notListed = await connectTo(`${listed.ws}/echo`, { origin: `http://127.0.0.1:${new URL(listed.http).port}` });
  assert.ok('refused' in notListed && notListed.refused.status === 403);
  await listed.app.close();

  const judged = await start({ allowedOrigins: (origin) => origin.endsWith('.trusted.test') });
  (await openSocket(`${judged.ws}/echo`, { origin: 'https://a.trusted.test' })).terminate();
  const untrusted = await connectTo(`${judged.ws}/echo`, { origin: 'https://evil.test' });
  assert.ok('refused' in untrusted && untrusted.refused.status === 403);
  await judged.app.close();
});

test('a message over maxPayload closes the socket with 1009', async () => {
  const { app, ws } = await start({ maxPayload: 1024 });
  const socket = await openSocket(`${ws}/echo`);
  socket.send('x'.repeat(1024));
  assert.equal((await nextMessage(socket)).length, 1024);
  const ending = closed(socket);
  socket.send('x'.repeat(1025));
  assert.equal((await ending).code, 1009);
  await app.close();
});

test('app.close() closes every socket with 1001 at once, whatever close_timeout', async () => {
  const { app, ws } = await start({}, { close_timeout: 10_000 });
  const sockets = await Promise.all([openSocket(`${ws}/echo`), openSocket(`${ws}/silent`)]);
  const endings = sockets.map((socket) => closed(socket));
  const started = performance.now();
  await app.close();
  const closeMs = performance.now() - started;
  for (const ending of await Promise.all(endings)) {
    assert.equal(ending.code, 1001);
    assert.ok(ending.afterMs < 1_000, `closed after ${ending.afterMs} ms`);
  }
  assert.ok(closeMs < 1_000, `close() took ${closeMs} ms`);
});

test('app.close() cuts a socket whose peer never answers the close within close_timeout', async () => {
  const { app, ws } = await start({}, { close_timeout: 300 });
  const socket = await openSocket(`${ws}/silent`);
  // The peer stops reading: it never sees nor answers the server's close frame.
  (socket as unknown as { _socket: { pause(): void } })._socket.pause();
  const started = performance.now();
  await app.close();
  const closeMs = performance.now() - started;
  assert.ok(closeMs >= 250 && closeMs < 2_000, `close() took ${closeMs} ms`);
  socket.terminate();
});

test('a dead peer (no pongs) is terminated after the ping interval; a live one stays', async () => {
  const { app, ws } = await start({ pingInterval: 100 });
  const dead = await openSocket(`${ws}/silent`, { autoPong: false });
  const live = await openSocket(`${ws}/echo`);
  const ending = closed(dead, 2_000);
  const { code, afterMs } = await ending;
  // Terminated: no close frame.
  assert.equal(code, 1006);
  assert.ok(afterMs >= 100 && afterMs < 1_000, `terminated after ${afterMs} ms`);
  assert.equal(live.readyState, live.OPEN);
  live.send('still here');
  assert.equal(await nextMessage(live), 'still here');
  await app.close();
});

test('100 concurrent connections each get their own echoes', async () => {
  const { app, ws } = await start();
  const sockets = await Promise.all(Array.from({ length: 100 }, () => openSocket(`${ws}/echo`)));
  const answers = await Promise.all(
    sockets.map(async (socket, i) => {
      const got: string[] = [];
      for (let n = 0; n < 3; n++) {
        const message = nextMessage(socket);
        socket.send(`client ${i} message ${n}`);
        got.push(await message);
      }
      return got;
    }),
  );
  answers.forEach((got, i) => assert.deepEqual(got, [0, 1, 2].map((n) => `client ${i} message ${n}`)));
  await app.close();
});

test('a handler that throws or rejects, or a listener that does, closes its socket with 1011 and is logged', async () => {
  const { app, ws, errors } = await start();
  for (const path of ['/throws', '/rejects']) {
    const socket = await openSocket(`${ws}${path}`);
    assert.equal((await closed(socket)).code, 1011);
  }
  for (const path of ['/listener_throws', '/listener_rejects']) {
    const socket = await openSocket(`${ws}${path}`);
    const ending = closed(socket);
    socket.send('boom');
    assert.equal((await ending).code, 1011);
  }
  assert.deepEqual(
    errors.map((error) => (error as Error).message),
    ['the handler failed', 'the async handler failed', 'a listener failed', 'an async listener failed'],
  );
  // The server still serves.
  const socket = await openSocket(`${ws}/echo`);
  socket.send('after');
  assert.equal(await nextMessage(socket), 'after');
  await app.close();
});

test('use_context_locals: false — the method receives (request, socket)', async () => {
  class Explicit {
    @websocket() hello(request: Request, socket: WebSocket) {
      socket.send(`hello ${String(request.GET['name'])}`);
    }
  }
  const app = createKernel({ root: new Explicit(), use_context_locals: false, logger: false }).use(websocketPlugin, { pingInterval: 0 });
  const { url } = await app.listen({ port: 0 });
  const socket = await openSocket(`${url.replace(/^http/, 'ws')}/hello?name=ada`);
  assert.equal(await nextMessage(socket), 'hello ada');
  await app.close();
});

test('the route map marks websocket routes', () => {
  const routes = routeMap(new Root());
  const echo = routes.find((route) => route.path === '/echo');
  assert.deepEqual(echo?.annotations, { websocket: true });
  assert.deepEqual(echo?.params, []);
  assert.equal(routes.find((route) => route.path === '/page')?.annotations, undefined);
});

test('bad options and misplaced decorators are coded errors', async () => {
  const failing = (options: unknown) => createKernel({ root: new Root(), logger: false }).use(websocketPlugin, options as WebsocketOptions).ready();
  await assert.rejects(failing({ maxPayload: 0 }), { code: 'HICKORY_ERR_WEBSOCKET_OPTION', message: /option "maxPayload" must be a positive whole number of bytes \(got 0\)/ });
  await assert.rejects(failing({ pingInterval: -1 }), { code: 'HICKORY_ERR_WEBSOCKET_OPTION', message: /"pingInterval"/ });
  await assert.rejects(failing({ allowedOrigins: ['https://a.test/path'] }), { code: 'HICKORY_ERR_WEBSOCKET_OPTION', message: /"https:\/\/a\.test\/path", which is not an origin/ });
  await assert.rejects(failing({ allowedOrigins: 'https://a.test' }), { code: 'HICKORY_ERR_WEBSOCKET_OPTION', message: /must be a list of origins/ });
  await assert.rejects(failing({ maxPayLoad: 10 }), /maxPayLoad/);
  assert.throws(() => websocket()('not a function' as unknown as () => void), { code: 'HICKORY_ERR_WEBSOCKET_DECORATOR' });
});

test('an open socket keeps nothing of its upgrade request: the Request is collected', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let held: WeakRef<Request> | undefined;
  class Held {
    @websocket() hold(request: Request, socket: WebSocket) {
      held = new WeakRef(request);
      socket.on('message', (data: Buffer) => socket.send(data));
    }
  }
  const app = createKernel({ root: new Held(), use_context_locals: false, logger: false }).use(websocketPlugin, { pingInterval: 1_000 });
  const { url } = await app.listen({ port: 0 });
  const socket = await openSocket(`${url.replace(/^http/, 'ws')}/hold`);
  socket.send('ping');
  assert.equal(await nextMessage(socket), 'ping');
  for (let i = 0; i < 10 && held?.deref() !== undefined; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
  }
  assert.equal(held?.deref(), undefined, 'the request is still held by the socket');
  socket.send('still open');
  assert.equal(await nextMessage(socket), 'still open');
  await app.close();
});

test('the request\'s transaction is open while the handler runs and ended once upgraded: the socket holds none', async () => {
  const log: string[] = [];
  const tx = new TransactionHook<string>({
    start: () => (log.push('start'), 'rw'),
    start_ro: () => (log.push('start_ro'), 'ro'),
    commit: () => void log.push('commit'),
    rollback: () => void log.push('rollback'),
    clear: () => void log.push('clear'),
  });
  class Transacted {
    @websocket() feed(request: Request, socket: WebSocket) {
      log.push(`handler sees ${tx.transaction(request)}`);
      socket.on('message', () => {
        try {
          tx.transaction(request);
          socket.send('still open');
        } catch (error) {
          socket.send((error as { code: string }).code);
        }
      });
    }
  }
  const app = createKernel({ root: new Transacted(), hooks: [tx], use_context_locals: false, logger: false }).use(hooksPlugin).use(websocketPlugin, { pingInterval: 0 });
  const { url } = await app.listen({ port: 0 });
  const socket = await openSocket(`${url.replace(/^http/, 'ws')}/feed`);
  socket.send('which transaction?');
  assert.equal(await nextMessage(socket), 'HICKORY_ERR_HOOKS_TRANSACTION_ENDED');
  // A GET's read-only transaction, given back at the upgrade.
  assert.deepEqual(log, ['start_ro', 'handler sees ro', 'clear']);
  await app.close();
});

test('an upgraded socket outlives request_timeout and keep_alive_timeout (they bound HTTP requests only)', async () => {
  const { app, ws } = await start({}, { request_timeout: 400, headers_timeout: 300, keep_alive_timeout: 200 });
  const socket = await openSocket(`${ws}/echo`);
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  assert.equal(socket.readyState, socket.OPEN);
  socket.send('later');
  assert.equal(await nextMessage(socket), 'later');
  await app.close();
});

test('an upgrade still in its hooks when the app begins closing is answered 503, not upgraded', async () => {
  let app: ReturnType<typeof createKernel> | undefined;
  let reached: () => void = () => {};
  const inHook = new Promise<void>((resolve) => (reached = resolve));
  // Its `before` hook waits until closing has begun.
  class Waits extends Hook {
    override before() {
      reached();
      return new Promise<void>((resolve) => app!.closingSignal.addEventListener('abort', () => resolve()));
    }
  }
  app = createKernel({ root: new Root(), hooks: [new Waits()], logger: false }).use(hooksPlugin).use(websocketPlugin, { pingInterval: 0 });
  const { url } = await app.listen({ port: 0 });
  const late = connectTo(`${url.replace(/^http/, 'ws')}/echo`);
  await inHook;
  const closing = app.close();
  const answer = await late;
  assert.ok('refused' in answer, 'upgraded while closing');
  assert.equal(answer.refused.status, 503);
  await closing;
});

test('WEBSOCKET_ERRORS has exactly 2 codes, each with a message', () => {
  assert.deepEqual(Object.keys(WEBSOCKET_ERRORS).sort(), ['HICKORY_ERR_WEBSOCKET_DECORATOR', 'HICKORY_ERR_WEBSOCKET_OPTION']);
  for (const message of Object.values(WEBSOCKET_ERRORS)) assert.ok(message.length > 0);
});
