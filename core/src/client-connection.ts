import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { forwardedHops } from './forwarded-hops.ts';
import { forwardedHost, forwardedNode, forwardedScheme } from './forwarded-values.ts';
import { validHost } from './host-names.ts';
import type { TrustHop } from './trust-proxy.ts';

/** The connection as the client made it: read from the socket, or reported by trusted proxies. */
export interface ClientConnection {
  /** `http` or `https`. */
  readonly scheme: 'http' | 'https';
  /** `host[:port]` the client asked for, always valid (`''` when nothing names one). */
  readonly host: string;
  /** The client's IP address (`''` once the socket is gone). */
  readonly remoteAddr: string;
  /** The client's port (`''` when a proxy reported the address without one). */
  readonly remotePort: string;
  /** Whether a trusted proxy's report replaced anything the socket or the Host header said. */
  readonly forwarded: boolean;
  /** Whether `host` is one a trusted proxy reported (rather than the Host header or the socket's). */
  readonly hostForwarded: boolean;
}

/**
 * Works out the client's scheme, host and address. Without `trust` (trust_proxy off) they come
 * from the socket and the Host header, and no forwarding header is read.
 *
 * With `trust`, the walk starts at the socket's peer (hop 0) and, while the hop's address is
 * trusted, believes that hop's report (see `forwardedHops`) and steps to the address it reports,
 * as proxy-addr does. The first untrusted address is the client; whatever lies beyond it — a
 * forged left-most `X-Forwarded-For` entry included — is never read. Scheme and host come from the
 * farthest believed hop that gives a valid one (`http`/`https`; a `host[:port]`); an invalid value
 * is skipped, and an address that is not an IP address (`unknown`, `_hidden`, garbage) ends the walk.
 *
 * @example
 * ```ts
 * const connection = clientConnection(request.raw, compileTrustProxy('loopback'));
 * connection.scheme; // 'https' behind a local nginx that sets X-Forwarded-Proto
 * ```
 */
export function clientConnection(raw: IncomingMessage, trust?: TrustHop): ClientConnection {
  const socket = raw.socket as (Socket & { encrypted?: boolean }) | undefined;
  const direct: ClientConnection = {
    scheme: socket?.encrypted ? 'https' : 'http',
    // Never a Host header that is not a valid host[:port]: the kernel answers those 400 before
    // anything runs, and a request made outside a kernel names the address the socket reached.
    host: validHost(raw.headers.host) ?? socketHost(socket),
    remoteAddr: socket?.remoteAddress ?? '',
    remotePort: String(socket?.remotePort ?? ''),
    forwarded: false,
    hostForwarded: false,
  };
  if (trust === undefined || !trust(direct.remoteAddr, 0)) return direct;
  const hops = forwardedHops(raw.headers);
  let { scheme, host, remoteAddr, remotePort } = direct;
  let forwarded = false;
  let hostForwarded = false;
  for (let hop = 0; hop < hops.length && (hop === 0 || trust(remoteAddr, hop)); hop++) {
    const report = hops[hop]!;
    const reportedScheme = forwardedScheme(report.proto);
    const reportedHost = forwardedHost(report.host);
    if (reportedScheme) scheme = reportedScheme;
    if (reportedHost) host = reportedHost;
    hostForwarded ||= reportedHost !== undefined;
    forwarded ||= reportedScheme !== undefined || hostForwarded;
    const node = forwardedNode(report.for);
    if (!node) break;
    remoteAddr = node.address;
    remotePort = node.port;
    forwarded = true;
  }
  return forwarded ? { scheme, host, remoteAddr, remotePort, forwarded, hostForwarded } : direct;
}

/**
 * `scheme://host` of a connection, the port left out when it is the scheme's default
 * (`request.host_url`): the base for an absolute URL to the site the client asked for.
 *
 * @example
 * ```ts
 * hostUrlOf(clientConnection(req)); // 'https://books.example.com' for Host: books.example.com:443 over TLS
 * ```
 */
export function hostUrlOf({ scheme, host }: ClientConnection): string {
  const defaultPort = scheme === 'https' ? ':443' : ':80';
  return `${scheme}://${host.endsWith(defaultPort) ? host.slice(0, -defaultPort.length) : host}`;
}

// An HTTP/1.0 request may come without Host (or with an empty one): name the address it reached, as WSGI servers do.
function socketHost(socket: Socket | undefined): string {
  const address = socket?.localAddress;
  if (!address) return '';
  return `${address.includes(':') ? `[${address}]` : address}:${socket.localPort}`;
}
