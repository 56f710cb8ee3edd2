import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import type { Request, Response } from '@hickory/core';
import { sign, unsign } from 'cookie-signature';

/** The name of the showcase's admin session cookie. */
const SESSION_COOKIE = 'hickory_admin';

const SESSION_SECONDS = 8 * 60 * 60;

// HICKORY_SECRET signs the cookie; without it, a random secret per process (sessions end with it).
const secret = process.env['HICKORY_SECRET'] || randomBytes(32).toString('hex');

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
  return process.env['HICKORY_ADMIN_PASSWORD'] || 'hickory';
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

/**
 * Starts a session: a cookie `admin.<expiry>` signed with HMAC-SHA256 (cookie-signature),
 * HttpOnly, SameSite=Lax, for eight hours.
 *
 * @example
 * ```ts
 * startSession(response);
 * ```
 */
export function startSession(response: Response, now = Date.now()): void {
  const expires = now + SESSION_SECONDS * 1000;
  response.set_cookie(SESSION_COOKIE, sign(`admin.${expires}`, secret), { max_age: SESSION_SECONDS });
}

/**
 * Ends the session (the client forgets the cookie).
 *
 * @example
 * ```ts
 * endSession(response);
 * ```
 */
export function endSession(response: Response): void {
  response.delete_cookie(SESSION_COOKIE);
}

/**
 * True when the request carries a session cookie this process signed and that has not expired.
 *
 * @example
 * ```ts
 * if (!hasSession(request)) abort(401);
 * ```
 */
export function hasSession(request: Request, now = Date.now()): boolean {
  const value = request.cookies[SESSION_COOKIE];
  if (value === undefined) return false;
  const payload = unsign(value, secret);
  if (payload === false) return false;
  const match = /^admin\.(\d{13})$/.exec(payload);
  return match !== null && Number(match[1]) > now;
}
