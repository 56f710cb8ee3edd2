import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { hasBody } from './read-body.ts';
import { markBodyUnread } from './upgrade-body.ts';
import type { Request } from './request.ts';

// On an upgrade request's raw message: its connection and the bytes read past its head.
const UPGRADE = Symbol('hickory.upgrade');

interface Upgrade {
  readonly socket: Duplex;
  readonly head: Buffer;
  readonly res: ServerResponse;
  taken: boolean;
}

type UpgradeRequest = IncomingMessage & { [UPGRADE]?: Upgrade };

/** Which upgrade requests a plugin may take, asked of a request's head before it is routed. */
export type UpgradeAcceptor = (req: IncomingMessage) => boolean;

// What the plugins of each kernel said they take (acceptUpgrades), read when it listens.
const ACCEPTORS = new WeakMap<object, UpgradeAcceptor[]>();

/**
 * Says, from a plugin's `apply()`, that the plugin takes some upgrade requests (with
 * {@link takeUpgrade}), and which: `accepts` sees the request's head (`node:http`'s message, before
 * routing) and answers at once. A server `listen()` starts listens for upgrades only when some
 * plugin said so; without one, Node serves a request that carries an `Upgrade` header (`h2c`, a
 * stray `websocket`) as any other. With one, a request no plugin accepts is still served as any
 * other where Node lets the server choose (24.9 and later: `shouldUpgradeCallback`); on older
 * lines it comes through the `'upgrade'` event, is routed and answered, and its connection ended
 * (a body it carries cannot be read there: 400, see docs/live.md).
 *
 * @example
 * ```ts
 * acceptUpgrades(kernel, (req) => req.method === 'GET' && req.headers.upgrade?.toLowerCase() === 'websocket');
 * ```
 */
export function acceptUpgrades(kernel: object, accepts: UpgradeAcceptor): void {
  const list = ACCEPTORS.get(kernel);
  if (list === undefined) ACCEPTORS.set(kernel, [accepts]);
  else list.push(accepts);
}

/**
 * Listens for the upgrade requests the kernel's plugins accept ({@link acceptUpgrades}) on
 * `server`, serving them through `listener` ({@link serveUpgrade}); nothing when no plugin
 * takes upgrades.
 *
 * @example
 * ```ts
 * listenForUpgrades(server, kernel, kernel.callback());
 * ```
 */
export function listenForUpgrades(server: Server, kernel: object, listener: (req: IncomingMessage, res: ServerResponse) => void): void {
  const acceptors = ACCEPTORS.get(kernel);
  if (acceptors === undefined) return;
  const accepts = (req: IncomingMessage): boolean => acceptors.some((accept) => accept(req));
  const serve = serveUpgrade(listener);
  const choosing = server as Server & { shouldUpgradeCallback?: UpgradeAcceptor };
  if (typeof choosing.shouldUpgradeCallback === 'function') {
    // Node 24.9+: an upgrade no plugin accepts is a 'request', served as any other (keep-alive,
    // its body read as usual); only accepted ones reach the 'upgrade' event.
    choosing.shouldUpgradeCallback = accepts;
    server.on('upgrade', serve);
    return;
  }
  // Older Node hands every request with an Upgrade header to the 'upgrade' event, its body left
  // unparsed on the socket: one no plugin accepts is still routed and answered, but a body it
  // carries cannot be read (reading it would see none, or a chunked body as empty).
  server.on('upgrade', (req: UpgradeRequest, socket: Duplex, head: Buffer) => {
    if (!accepts(req) && hasBody(req)) markBodyUnread(req);
    serve(req, socket, head);
  });
}

/**
 * A `node:http` `'upgrade'` listener that serves the request through `listener` like any other:
 * host check, hooks, routing and guards run as for a GET, and whatever answers it (a 404, a 401,
 * a handler's page) is written as plain HTTP on the connection, which is then ended. A plugin
 * takes the connection instead with {@link takeUpgrade} (`@hickory/websocket`).
 *
 * @example
 * ```ts
 * server.on('upgrade', serveUpgrade(kernel.callback()));
 * ```
 */
function serveUpgrade(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    // Node takes its own listeners off an upgraded socket: without one, a reset would be an
    // uncaught 'error'. Whoever takes the socket adds its own.
    socket.on('error', destroyOnError);
    const res = new ServerResponse(req);
    // An answer that is not an upgrade ends the connection: its bytes after the head are not HTTP.
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    const upgrade: Upgrade = { socket, head, res, taken: false };
    (req as UpgradeRequest)[UPGRADE] = upgrade;
    res.once('finish', () => {
      if (upgrade.taken) return;
      res.detachSocket(socket as Socket);
      (socket as Socket).destroySoon();
    });
    listener(req, res);
  };
}

function destroyOnError(this: Duplex): void {
  this.destroy();
}

/**
 * Takes the connection of an upgrade request (one that came through a server's `'upgrade'`
 * event, see `listen()`): the kernel then writes nothing on it (the request's response counts as
 * handed over, status 101, for `onResponse` taps and the request log), and the caller owns the
 * socket and the bytes already read past the request's head. `undefined` for any other request
 * (no `Upgrade` header, `inject()`, HTTP/2), or when taken already.
 *
 * @example
 * ```ts
 * const taken = takeUpgrade(request);
 * if (taken) wss.handleUpgrade(request.raw, taken.socket, taken.head, (ws) => serve(ws));
 * ```
 */
export function takeUpgrade(request: Request): { socket: Duplex; head: Buffer } | undefined {
  const upgrade = (request.raw as UpgradeRequest)[UPGRADE];
  if (upgrade === undefined || upgrade.taken) return undefined;
  upgrade.taken = true;
  const { socket, head, res } = upgrade;
  res.detachSocket(socket as Socket);
  res.statusCode = 101;
  // Destroyed with no socket attached: nothing reaches the connection, and the kernel's write
  // sees a response it must not write.
  res.destroy();
  // The answer (the 101) is the taker's, written at once: observers of the response finish now.
  // 'close' follows once the request's own steps are over, so that a wait bounded by
  // handler_timeout does not take it for a client that left.
  res.emit('finish');
  setImmediate(() => res.emit('close'));
  socket.off('error', destroyOnError);
  return { socket, head };
}
