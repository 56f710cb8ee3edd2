import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
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
export function serveUpgrade(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
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
