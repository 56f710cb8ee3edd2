import type { IncomingMessage } from 'node:http';
import { HTTPError } from './http-error.ts';

// On an upgrade request whose body Node left on the socket, unparsed (Node before 24.9, when the
// request reached the 'upgrade' event but no plugin takes it: see listenForUpgrades).
const UNREAD_BODY = Symbol('hickory.upgradeBodyUnread');

type Marked = IncomingMessage & { [UNREAD_BODY]?: true };

/**
 * Marks a request whose body cannot be read: reading it answers {@link unreadUpgradeBody}'s 400.
 *
 * @example
 * ```ts
 * if (!accepted && hasBody(req)) markBodyUnread(req);
 * ```
 */
export function markBodyUnread(req: IncomingMessage): void {
  (req as Marked)[UNREAD_BODY] = true;
}

/**
 * The 400 of a request whose body this Node line left unread ({@link markBodyUnread}), or
 * `undefined` when its body can be read. Without it the body would read as missing (a 400 that
 * blames the client's Content-Length) or, chunked, as empty.
 *
 * @example
 * ```ts
 * const refusal = unreadUpgradeBody(req);
 * if (refusal) throw refusal;
 * ```
 */
export function unreadUpgradeBody(req: IncomingMessage): HTTPError | undefined {
  if ((req as Marked)[UNREAD_BODY] !== true) return undefined;
  return new HTTPError(
    400,
    `This server cannot read the body of a request that asks to switch protocols (Upgrade: ${String(req.headers['upgrade'])}) on Node ${process.version}: send it without the Upgrade header, or serve the app on Node 24.9 or later, which reads it.`,
    { Connection: 'close' },
  );
}
