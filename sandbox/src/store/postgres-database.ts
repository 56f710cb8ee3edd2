import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { databaseBusy } from './busy.ts';
import { migrateToLatest, type MigrationOptions } from './migrations.ts';
import { stillOpen, type ShowcaseDatabase } from './showcase-database.ts';
import type { ShowcaseTables, ShowcaseTransaction } from './tables.ts';

/** The bounds of {@link openPostgresDatabase}'s pool (and whether a new database gets seed books). */
export interface PostgresOptions extends MigrationOptions {
  /** Connections at most (node-postgres' `max`; default 10). */
  max?: number;
  /** How long a request waits for one of them (`connectionTimeoutMillis`; default 5 s). */
  connectionTimeoutMillis?: number;
  /** Where a connection that fails while idle in the pool is reported (default: stderr). */
  onIdleError?: (error: Error) => void;
}

// node-postgres' pool says it with this message alone (no code): every connection stayed taken
// for connectionTimeoutMillis.
const POOL_TIMEOUT = 'timeout exceeded when trying to connect';

function busyWhenPoolTimedOut(error: unknown): never {
  if (error instanceof Error && error.message === POOL_TIMEOUT) databaseBusy();
  throw error;
}

/** The URL without its password, for messages. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * Opens the showcase's PostgreSQL database through a bounded `pg.Pool` (creating and migrating
 * the schema): each transaction has a pooled connection of its own for as long as it lasts, and a
 * request that waits longer than `connectionTimeoutMillis` for one is answered 503. Read-only
 * transactions are `START TRANSACTION READ ONLY`.
 *
 * @example
 * ```ts
 * const database = await openPostgresDatabase('postgres://books@127.0.0.1/books', { max: 20 });
 * ```
 */
export async function openPostgresDatabase(url: string, options: PostgresOptions = {}): Promise<ShowcaseDatabase> {
  const { max = 10, connectionTimeoutMillis = 5000, onIdleError = (error: Error) => console.error(`PostgreSQL: an idle pooled connection failed: ${error.message}`) } = options;
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis, idleTimeoutMillis: 30_000 });
  // Without a listener, an idle connection that the server ends (a restart) would end the process.
  pool.on('error', onIdleError);
  const db = new Kysely<ShowcaseTables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrateToLatest(db, 'postgres', { seed: options.seed });
  } catch (error) {
    await db.destroy();
    throw new Error(`The showcase could not prepare its PostgreSQL database at ${shown(url)} (DATABASE_URL): ${(error as Error).message}`, { cause: error });
  }
  const open = new WeakSet<ShowcaseTransaction>();
  const begun = (trx: ShowcaseTransaction) => (open.add(trx), trx);
  return {
    dialect: 'postgres',
    autocommit: db,
    begin: async () => begun(await db.startTransaction().execute().catch(busyWhenPoolTimedOut)),
    beginReadOnly: async () => begun(await db.startTransaction().setAccessMode('read only').execute().catch(busyWhenPoolTimedOut)),
    // The pooled connection is the lease: committing or rolling back gives it back to the pool.
    async release(trx) {
      if (!open.delete(trx)) return;
      if (stillOpen(trx)) await trx.rollback().execute();
    },
    read: (work) => work(db).catch(busyWhenPoolTimedOut),
    close: () => db.destroy(),
  };
}
