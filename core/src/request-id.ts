import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The longest incoming request id accepted; a longer one is replaced by a new id.
 *
 * @example
 * ```ts
 * acceptRequestId('x'.repeat(REQUEST_ID_LIMIT + 1)); // undefined
 * ```
 */
export const REQUEST_ID_LIMIT = 128;

// Letters, digits and `._:-`: enough for UUIDs, ULIDs and trace ids, nothing that could break a
// header or a log line.
const SAFE_ID = /^[A-Za-z0-9._:-]+$/;

/**
 * The id a client or a proxy sent, if it is safe to keep: 1 to {@link REQUEST_ID_LIMIT}
 * characters of `[A-Za-z0-9._:-]`. Anything else (two headers joined by a comma, spaces, control
 * characters, an oversized value) gives `undefined`.
 *
 * @example
 * ```ts
 * acceptRequestId('3f2a-77'); // '3f2a-77'
 * acceptRequestId('a\r\nSet-Cookie: x'); // undefined
 * ```
 */
export function acceptRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= REQUEST_ID_LIMIT && SAFE_ID.test(value) ? value : undefined;
}

// Unique across the processes of a cluster (the prefix) and cheap per request (a counter): no
// entropy is drawn per request, unlike a UUID.
const PREFIX = `${randomBytes(4).toString('hex')}-`;
let counter = 0;

/**
 * A new request id: this process's random prefix and a counter (`9f86d081-1a`).
 *
 * @example
 * ```ts
 * newRequestId(); // '9f86d081-1'
 * ```
 */
export function newRequestId(): string {
  counter = counter === Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
  return PREFIX + counter.toString(36);
}

/**
 * The request's id: the incoming `header` when it is safe ({@link acceptRequestId}), else a
 * new one. `header` is lower-case, or `false` to never read one.
 *
 * @example
 * ```ts
 * requestIdOf(req, 'x-request-id');
 * ```
 */
export function requestIdOf(raw: IncomingMessage, header: string | false): string {
  return (header === false ? undefined : acceptRequestId(raw.headers[header])) ?? newRequestId();
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The check of the `request_id_header` configuration key: `false`, or a header name.
 *
 * @example
 * ```ts
 * checkRequestIdHeader('x correlation'); // 'must be false or a header name such as "x-request-id" …'
 * ```
 */
export function checkRequestIdHeader(value: unknown): string | undefined {
  return value === false || (typeof value === 'string' && TOKEN.test(value))
    ? undefined
    : `must be false or a header name such as "x-request-id" (got ${typeof value === 'string' ? JSON.stringify(value) : String(value)})`;
}
