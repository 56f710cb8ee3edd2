import type { Kysely } from 'kysely';
import type { ShowcaseTables } from './tables.ts';

/**
 * Admin sessions in the database, so that every instance of the showcase sees the same ones and
 * a logout ends a session everywhere. Rows hold the SHA-256 of a session's id, never the id: a
 * copy of the table opens nothing.
 *
 * @example
 * ```ts
 * const sessions = new SessionStore(trx);
 * await sessions.create(hashOfId, Date.now() + 8 * 3600_000);
 * await sessions.isLive(hashOfId, Date.now()); // true
 * ```
 */
export class SessionStore {
  readonly #db: Kysely<ShowcaseTables>;

  constructor(db: Kysely<ShowcaseTables>) {
    this.#db = db;
  }

  /** Records a session until `expiresAt` (milliseconds), and forgets those already expired. */
  async create(idHash: string, expiresAt: number, now = Date.now()): Promise<void> {
    await this.#db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    await this.#db.insertInto('sessions').values({ id_hash: idHash, expires_at: expiresAt }).execute();
  }

  /** True when the session exists and has not expired at `now`. */
  async isLive(idHash: string, now = Date.now()): Promise<boolean> {
    const row = await this.#db.selectFrom('sessions').select('id_hash').where('id_hash', '=', idHash).where('expires_at', '>', now).executeTakeFirst();
    return row !== undefined;
  }

  /** Ends a session; false when there was none. */
  async remove(idHash: string): Promise<boolean> {
    const result = await this.#db.deleteFrom('sessions').where('id_hash', '=', idHash).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
