import type { Kysely } from 'kysely';
import type { DialectName } from './migrations.ts';
import type { ShowcaseTables, ShowcaseTransaction } from './tables.ts';

/**
 * The showcase's database, SQLite or PostgreSQL, as the request transactions use it. Each wait it
 * makes is bounded: past the bound, the request is answered 503 with `Retry-After`.
 *
 * @example
 * ```ts
 * const trx = await database.begin();
 * try { await trx.insertInto('books').values({ name: 'Dune' }).execute(); await trx.commit().execute(); }
 * finally { await database.release(trx); }
 * ```
 */
export interface ShowcaseDatabase {
  readonly dialect: DialectName;
  /** A read-write transaction. */
  begin(): Promise<ShowcaseTransaction>;
  /** A read-only transaction: on SQLite it never waits for the writer. */
  beginReadOnly(): Promise<ShowcaseTransaction>;
  /**
   * Ends what `begin`/`beginReadOnly` took: rolls back when neither committed nor rolled back,
   * then gives back the connection or the turn, even when that rollback fails (then it throws).
   * A second call for the same transaction does nothing.
   */
  release(trx: ShowcaseTransaction): Promise<void>;
  /** Runs `work` outside every request's transaction (a check made before the request's begins). */
  read<T>(work: (db: Kysely<ShowcaseTables>) => Promise<T>): Promise<T>;
  /**
   * Queries outside every request's transaction, each its own (autocommit), that may write: on
   * SQLite the one writer connection, taken in turn like a transaction takes it (a request whose
   * own transaction holds it is refused at once); on PostgreSQL the pool. For writes made once a
   * request's transaction has ended (the session store's, after the commit).
   */
  readonly autocommit: Kysely<ShowcaseTables>;
  /** Closes every connection. */
  close(): Promise<void>;
}

/**
 * True when the transaction was neither committed nor rolled back.
 *
 * @example
 * ```ts
 * if (stillOpen(trx)) await trx.rollback().execute();
 * ```
 */
export function stillOpen(trx: ShowcaseTransaction): boolean {
  return !trx.isCommitted && !trx.isRolledBack;
}
