/**
 * `@hickory/broadcast`: messages fanned out to every subscriber of a channel, in one process or
 * across every instance on one PostgreSQL database (LISTEN/NOTIFY) — what feeds a live page.
 *
 * @example
 * ```ts
 * import { memoryBroadcast, postgresBroadcast } from '@hickory/broadcast';
 * const broadcast = process.env.DATABASE_URL ? postgresBroadcast(pool) : memoryBroadcast();
 * ```
 */
export { type Broadcast, type Listener, type MessagesOptions } from './broadcast.ts';
export { memoryBroadcast } from './memory.ts';
export { postgresBroadcast, type ListeningClient, type ListeningPool, type PostgresBroadcastOptions } from './postgres.ts';
export { BROADCAST_ERRORS, type BroadcastErrorCode } from './errors.ts';
