import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResolvedConfig } from './config.ts';
import { createHttpServer } from './http-server.ts';

/** Options of `kernel.listen()`. */
export interface ListenOptions {
  /** Port to listen on (0 picks a free one). Default 8080. */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
}

/** What `kernel.listen()` gives back. */
export interface Listening {
  server: Server;
  /** `http://host:port` of the listening server. */
  url: string;
}

/**
 * The HTTP servers a kernel listens on, and their graceful end: stop accepting, close idle
 * connections, wait for the requests in flight (up to a grace period), then cut what is left.
 *
 * @example
 * ```ts
 * const servers = new Servers();
 * const { url } = await servers.listen(config, listener, { port: 0 });
 * await servers.close(inFlight.drained(), 5_000);
 * ```
 */
export class Servers {
  private readonly open = new Set<Server>();

  /** Starts a server with the configured timeouts on `host:port` (default 127.0.0.1:8080). */
  async listen(config: ResolvedConfig, listener: (req: IncomingMessage, res: ServerResponse) => void, options: ListenOptions): Promise<Listening> {
    const server = createHttpServer(config, listener);
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    this.open.add(server);
    const { port } = server.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return { server, url: `http://${shownHost}:${port}` };
  }

  /** Closes every server: in-flight requests get until `drained` settles or `graceMs` passes. */
  async close(drained: Promise<void>, graceMs: number): Promise<void> {
    const closed = [...this.open].map((server) => new Promise<void>((done) => server.close(() => done())));
    for (const server of this.open) server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((done) => {
      timer = setTimeout(done, graceMs);
      timer.unref();
    });
    await Promise.race([drained.then(() => Promise.all(closed)), grace]);
    clearTimeout(timer);
    for (const server of this.open) server.closeAllConnections();
    await Promise.all(closed);
    this.open.clear();
  }
}
