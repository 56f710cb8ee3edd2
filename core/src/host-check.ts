import type { IncomingMessage } from 'node:http';
import { HTTPError } from './http-error.ts';
import { validHost } from './host-names.ts';

/** What {@link hostCheck} needs of a request: its Host header, and the host it was asked for. */
interface HostedRequest {
  readonly raw: IncomingMessage;
  readonly host: string;
}

/**
 * The check every request passes before routing: its `Host` header, when it has one, must be a
 * valid `host[:port]` (RFC 9112 §3.2: else 400), and with `allowed_hosts` (`allowed`) the host the
 * request was asked for — the Host header, or with `trust_proxy` the one a trusted proxy reports —
 * must be one of them (else 400). Throws the 400; the last host that passed is remembered, so that
 * the usual request (the same host as the one before) costs one string comparison.
 *
 * @example
 * ```ts
 * const check = hostCheck(compileAllowedHosts(['.example.org']));
 * check(request); // throws HTTPError(400) for Host: evil.example
 * ```
 */
export function hostCheck(allowed: ((host: string) => boolean) | undefined): (request: HostedRequest) => void {
  let lastHeader: string | undefined;
  let lastAllowed: string | undefined;
  return (request) => {
    const header = request.raw.headers.host;
    if (header !== undefined && header !== '' && header !== lastHeader) {
      // The value is not repeated: it may be markup or anything else a client typed.
      if (validHost(header) === undefined) throw new HTTPError(400, 'The Host header is not a valid host name with an optional port (such as books.example.com:8080).');
      lastHeader = header;
    }
    if (allowed === undefined) return;
    const host = request.host;
    if (host === lastAllowed) return;
    // A valid host[:port] by now (the Host header's, a trusted proxy's or the socket's): safe to name.
    if (!allowed(host)) throw new HTTPError(400, `This server does not answer for the host "${host}" (allowed_hosts).`);
    lastAllowed = host;
  };
}
