import type { IncomingMessage } from 'node:http';
import { HTTPError } from './http-error.ts';
import { validHost } from './host-names.ts';

/** What {@link hostCheck} needs of a request: its Host header, and the host it was asked for. */
interface HostedRequest {
  readonly raw: IncomingMessage;
  readonly host: string;
}

/**
 * The check every request passes before routing: it names its host once (a second `Host` line →
 * 400; an absolute-form target's authority replaces `Host`, RFC 9112 §3.2.2); its `Host` header, when it has one, must be a
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
    const { raw } = request;
    // HTTP/2 names the host in `:authority` (RFC 9113 §8.3.1), which wins over a Host header.
    if (raw.httpVersionMajor === 2) adoptPseudoAuthority(raw);
    else if (repeatsHost(raw.rawHeaders)) throw new HTTPError(400, 'The request has more than one Host header (RFC 9112 §3.2): a proxy and this server could each read another one.');
    // An absolute-form target (`GET http://books.example/x`) names the host itself, and that
    // replaces the Host header (RFC 9112 §3.2.2): what routing and `allowed_hosts` see is its authority.
    if (raw.url !== undefined && raw.url.charCodeAt(0) !== 47 /* / */) adoptAuthority(raw);
    const header = raw.headers.host;
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

// Whether the raw header lines name Host more than once (Node keeps only the first in `headers`).
function repeatsHost(lines: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]!;
    // `Host` as nearly every client spells it is matched as is: lowering it made a new string a request.
    if (name.length === 4 && (name === 'Host' || name.toLowerCase() === 'host')) {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}

// `scheme://authority/path?query` → the Host header becomes `authority` (an empty or a missing one
// stays invalid: validated like any Host below).
function adoptAuthority(raw: IncomingMessage): void {
  const target = raw.url!;
  const scheme = target.indexOf('://');
  if (scheme === -1) return;
  const start = scheme + 3;
  let end = target.length;
  for (let i = start; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  const authority = target.slice(start, end);
  if (authority === '') throw new HTTPError(400, 'The absolute-form request target names no host.');
  raw.headers.host = authority;
}

function adoptPseudoAuthority(raw: IncomingMessage): void {
  const authority = raw.headers[':authority'];
  if (typeof authority === 'string') raw.headers.host = authority;
}
