import type { WebSocket } from 'ws';

/**
 * Ping/pong for a set of sockets, on one timer for all of them: every `intervalMs` each socket
 * that answered since the last round (a pong, or any message) is pinged again, and one that did
 * not is terminated, so a peer gone without a close (a pulled cable, a sleeping laptop, a proxy
 * that dropped the connection) is let go of within two intervals. The timer never keeps the
 * process alive.
 *
 * @example
 * ```ts
 * const keepalive = new Keepalive(wss.clients, 30_000);
 * keepalive.start();
 * keepalive.watch(ws);
 * ```
 */
export class Keepalive {
  private readonly answered = new WeakSet<WebSocket>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sockets: ReadonlySet<WebSocket>,
    private readonly intervalMs: number,
  ) {}

  /** Starts watching a socket just upgraded. */
  watch(socket: WebSocket): void {
    if (this.intervalMs === 0) return;
    this.answered.add(socket);
    const heard = (): void => void this.answered.add(socket);
    socket.on('pong', heard);
    socket.on('message', heard);
  }

  /** Starts the rounds (at `ready()`, outside any request's context). */
  start(): void {
    if (this.intervalMs === 0 || this.timer !== undefined) return;
    this.timer = setInterval(this.round, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer (the app is closing). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private readonly round = (): void => {
    for (const socket of this.sockets) {
      if (socket.readyState !== socket.OPEN) continue;
      if (!this.answered.has(socket)) {
        socket.terminate();
        continue;
      }
      this.answered.delete(socket);
      socket.ping();
    }
  };
}
