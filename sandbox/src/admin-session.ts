import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from '@hickory/core';
import { SessionStore } from './store/session-store.ts';
import type { Library } from './store/library.ts';

/**
 * The name of the showcase's admin session cookie (also its OpenAPI security scheme's).
 *
 * @example
 * ```ts
 * request.cookies[SESSION_COOKIE];
 * ```
 */
export const SESSION_COOKIE = 'hickory_admin';

const SESSION_SECONDS = 8 * 60 * 60;

// 32 random bytes, base64url: what a session cookie holds, and nothing else looks like it.
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const DEMO_PASSWORD = 'hickory';

/**
 * The showcase's admin password: `HICKORY_ADMIN_PASSWORD`, or `hickory` (shown on the login page:
 * it is a demo).
 *
 * @example
 * ```ts
 * adminPassword(); // 'hickory'
 * ```
 */
function adminPassword(): string {
  return process.env['HICKORY_ADMIN_PASSWORD'] || DEMO_PASSWORD;
}

/**
 * Refuses to serve in production with the demo password: with `NODE_ENV=production` (any case,
 * spaces around ignored) and no `HICKORY_ADMIN_PASSWORD`, throws a message naming both.
 *
 * @example
 * ```ts
 * kernel.hooks.ready.tap('showcase', () => requireAdminPassword());
 * ```
 */
export function requireAdminPassword(env: NodeJS.ProcessEnv = process.env): void {
  if (env['NODE_ENV']?.trim().toLowerCase() === 'production' && !env['HICKORY_ADMIN_PASSWORD']) {
    throw new Error(
      `NODE_ENV is production but HICKORY_ADMIN_PASSWORD is not set: the showcase's /admin/ would open with the demo password "${DEMO_PASSWORD}". Set HICKORY_ADMIN_PASSWORD to a password of your own.`,
    );
  }
}

/**
 * True when `given` is the admin password (compared in constant time).
 *
 * @example
 * ```ts
 * passwordMatches('hickory'); // true by default
 * ```
 */
export function passwordMatches(given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(adminPassword()));
}

// The table holds the hash of an id only: reading the table does not give a session away.
function hashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

function sessionId(request: Request): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return value !== undefined && SESSION_ID.test(value) ? value : undefined;
}

/**
 * Starts a session: a random id (32 bytes) recorded, hashed, in the `sessions` table for eight
 * hours (in the request's transaction), and sent as an HttpOnly, SameSite=Lax cookie.
 *
 * @example
 * ```ts
 * await startSession(library.sessions(), response);
 * ```
 */
export async function startSession(sessions: SessionStore, response: Response, now = Date.now()): Promise<void> {
  const id = randomBytes(32).toString('base64url');
  await sessions.create(hashOf(id), now + SESSION_SECONDS * 1000, now);
  response.set_cookie(SESSION_COOKIE, id, { max_age: SESSION_SECONDS });
}

/**
 * Ends the request's session: its row is deleted (no instance accepts its cookie any more) and the
 * client is told to forget the cookie.
 *
 * @example
 * ```ts
 * await endSession(library.sessions(), request, response);
 * ```
 */
export async function endSession(sessions: SessionStore, request: Request, response: Response): Promise<void> {
  const id = sessionId(request);
  if (id !== undefined) await sessions.remove(hashOf(id));
  response.delete_cookie(SESSION_COOKIE);
}

/**
 * True when the request's cookie names a session of the `sessions` table that has not expired.
 * Read outside the request's transaction: security checks run before it begins.
 *
 * @example
 * ```ts
 * if (!(await hasSession(library, request))) abort(401);
 * ```
 */
export async function hasSession(library: Library, request: Request, now = Date.now()): Promise<boolean> {
  const id = sessionId(request);
  if (id === undefined) return false;
  return library.read((db) => new SessionStore(db).isLive(hashOf(id), now));
}
