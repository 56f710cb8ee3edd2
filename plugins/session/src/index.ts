/**
 * `@hickory/session`: `request.session` (saved once at the end of the request when changed),
 * signed cookies for everyone (`set_cookie(…, { signed: true })`, `request.signed_cookies`), and
 * the stores: `memoryStore()` and `sqlStore(db)` (SQLite and PostgreSQL, shared by every instance).
 *
 * @example
 * ```ts
 * import { sessionPlugin, sqlStore } from '@hickory/session';
 * createKernel({ root }).use(dispatchPlugin).use(sessionPlugin, { secret: process.env.SESSION_SECRET!, store: sqlStore(db) });
 * ```
 */
export { sessionPlugin } from './plugin.ts';
export type { SessionOptions, SessionCookieOptions } from './options.ts';
export { Session } from './session.ts';
export { memoryStore, type MemoryStoreOptions } from './memory-store.ts';
export { sqlStore, type SqlStoreOptions } from './sql-store.ts';
export type { SessionStore, StoredSession, StoreAnswer } from './store.ts';
export { SESSION_ERRORS, type SessionErrorCode } from './errors.ts';
