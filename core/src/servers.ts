import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { ResolvedConfig } from './config.ts';
import { coreError } from './errors.ts';
import { createHttpServer, type TlsOptions } from './http-server.ts';
import { listenForUpgrades } from './upgrade.ts';

/** Options of `kernel.listen()`. */
export interface ListenOptions {
  /** Port to listen on (0 picks a free one). Default 8080. */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** A certificate and its key: HTTPS (the URL is `https://…`, `request.scheme` is `https`). */
  tls?: TlsOptions;
  /** With `tls`: HTTP/2, and HTTP/1.1 for clients that do not offer it (ALPN). */
  http2?: boolean;
}

/** What `kernel.listen()` gives back. */
export interface Listening {
  server: Server;
  /** `http://host:port` (`https://` with `tls`) of the listening server. */
  url: string;
}

/**
 * The HTTP servers a kernel listens on, and their graceful end: stop accepting, close idle
 * connections, wait for the requests in flight (up to a grace period), then cut what is left.
 *
 * @example
 * ```ts
 * const servers = new Servers();
 * const { url } = await servers.listen(config, listener, { port: 0 }, kernel);
 * await servers.close(inFlight.drained(), 5_000);
 * ```
 */
export class Servers {
  private readonly open = new Set<Server>();
  // The HTTP/2 sessions of each server: node:http2 has no closeIdleConnections/closeAllConnections.
  private readonly sessions = new Map<Server, Set<Http2Session>>();

  /** Starts a server with the configured timeouts on `host:port` (default 127.0.0.1:8080). */
  async listen(config: ResolvedConfig, listener: (req: IncomingMessage, res: ServerResponse) => void, options: ListenOptions, kernel: object): Promise<Listening> {
    // Browsers speak HTTP/2 only over TLS: an unencrypted one would serve no browser.
    if (options.http2 === true && options.tls === undefined) throw coreError('HICKORY_ERR_LISTEN', 'http2: true needs tls: { key, cert } (browsers speak HTTP/2 only over TLS)');
    const server = createHttpServer(config, listener, options.tls, options.http2 === true);
    // Upgrade requests (WebSockets) are routed like any other: a plugin takes the connection.
    // Listened for only when a plugin takes some: else Node serves them as any other request.
    listenForUpgrades(server, kernel, listener);
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    this.open.add(server);
    if (options.http2 === true) {
      const sessions = new Set<Http2Session>();
      this.sessions.set(server, sessions);
      server.on('session', (session: Http2Session) => {
        sessions.add(session);
        session.once('close', () => sessions.delete(session));
      });
    }
    const { port } = server.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return { server, url: `${options.tls === undefined ? 'http' : 'https'}://${shownHost}:${port}` };
  }

  /** Closes every server: in-flight requests get until `drained` settles or `graceMs` passes. */
  async close(drained: Promise<void>, graceMs: number): Promise<void> {
    const closed = [...this.open].map((server) => new Promise<void>((done) => server.close(() => done())));
    for (const server of this.open) {
      if (typeof server.closeIdleConnections === 'function') server.closeIdleConnections();
      // GOAWAY: the session takes no new stream and ends once its streams are done.
      for (const session of this.sessions.get(server) ?? []) session.close();
    }
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((done) => {
      timer = setTimeout(done, graceMs);
      timer.unref();
    });
    await Promise.race([drained.then(() => Promise.all(closed)), grace]);
    clearTimeout(timer);
    for (const server of this.open) {
      if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
      for (const session of this.sessions.get(server) ?? []) session.destroy();
    }
    await Promise.all(closed);
    this.open.clear();
    this.sessions.clear();
  }
}
