import { fileURLToPath } from 'node:url';
import type { TransactionFunctions } from '@hickory/hooks';
import { openPostgresDatabase, type PostgresOptions } from './postgres-database.ts';
import { stillOpen, type ShowcaseDatabase } from './showcase-database.ts';
import { openSqliteDatabase, type SqliteOptions } from './sqlite-database.ts';
import type { ShowcaseTransaction } from './tables.ts';

/** The bounds of either database (each ignores the other's). */
export type DatabaseOptions = SqliteOptions & PostgresOptions;

/**
 * Which database the showcase uses: `DATABASE_URL` when set (a `postgres://` URL), else the
 * SQLite file `HICKORY_SANDBOX_DB` (`:memory:` for one that lives as long as the process), else
 * `sandbox/data/books.sqlite` — so `npm start` needs no setup.
 *
 * @example
 * ```ts
 * databaseLocation({ DATABASE_URL: 'postgres://127.0.0.1/books' }); // 'postgres://127.0.0.1/books'
 * databaseLocation({}); // '/…/sandbox/data/books.sqlite'
 * ```
 */
export function databaseLocation(env: NodeJS.ProcessEnv = process.env): string {
  return env['DATABASE_URL']?.trim() || env['HICKORY_SANDBOX_DB'] || fileURLToPath(new URL('../../data/books.sqlite', import.meta.url));
}

/**
 * The database's wait bound from `HICKORY_SANDBOX_DB_WAIT_MS` (milliseconds, when set): how long a
 * request waits for the SQLite writer and for another process's lock on the file (or for a pooled
 * PostgreSQL connection) before it is answered 503 with `Retry-After`. Anything but a positive
 * whole number is refused, naming the variable.
 *
 * @example
 * ```ts
 * databaseOptions({ HICKORY_SANDBOX_DB_WAIT_MS: '800' }); // { writeWaitMs: 800, readWaitMs: 800, connectionTimeoutMillis: 800 }
 * databaseOptions({}); // {} (the defaults: 5 s)
 * ```
 */
export function databaseOptions(env: NodeJS.ProcessEnv = process.env): DatabaseOptions {
  const text = env['HICKORY_SANDBOX_DB_WAIT_MS']?.trim();
  if (!text) return {};
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < 1) throw new Error(`HICKORY_SANDBOX_DB_WAIT_MS must be a whole number of milliseconds above 0 (got "${text}"): how long a request waits for the database before a 503.`);
  return { writeWaitMs: ms, readWaitMs: ms, connectionTimeoutMillis: ms };
}

/**
 * True for a `postgres://` or `postgresql://` URL (what selects PostgreSQL).
 *
 * @example
 * ```ts
 * isPostgresUrl('postgresql://127.0.0.1/books'); // true
 * ```
 */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Opens (creating and migrating) the database at `location`: PostgreSQL for a `postgres://` or
 * `postgresql://` URL, SQLite for a file path or `:memory:`. Any other URL is refused, naming it.
 *
 * @example
 * ```ts
 * const database = await openShowcaseDatabase(databaseLocation());
 * ```
 */
export async function openShowcaseDatabase(location: string, options: DatabaseOptions = {}): Promise<ShowcaseDatabase> {
  if (isPostgresUrl(location)) return openPostgresDatabase(location, options);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    const scheme = location.slice(0, location.indexOf(':'));
    throw new Error(`The showcase's database "${scheme}://…" is not supported: DATABASE_URL takes a postgres:// URL; unset it to use the SQLite file.`);
  }
  return openSqliteDatabase(location, options);
}

/**
 * The functions of the showcase's `TransactionHook`: `start`/`start_ro` begin a Kysely
 * `ControlledTransaction` (read-write or read-only) on the database `database()` opens, `commit`
 * and `rollback` end it, and `clear` gives back the connection or the writer's turn it took, then
 * calls `ended` with the transaction (committed or not: `trx.isCommitted` says), which is where
 * what must follow a commit goes — after the writer's turn is given back, before the response.
 *
 * @example
 * ```ts
 * const hook = new TransactionHook(transactionFunctions(() => database, (trx) => trx.isCommitted && announce()));
 * ```
 */
export function transactionFunctions(database: () => Promise<ShowcaseDatabase>, ended?: (trx: ShowcaseTransaction) => unknown): TransactionFunctions<ShowcaseTransaction> {
  // Each transaction goes back to the database it came from, even if that one was closed and
  // another opened since (a clear never opens a database).
  const origin = new WeakMap<ShowcaseTransaction, ShowcaseDatabase>();
  const begun = (db: ShowcaseDatabase, trx: ShowcaseTransaction) => (origin.set(trx, db), trx);
  return {
    start: async () => {
      const db = await database();
      return begun(db, await db.begin());
    },
    start_ro: async () => {
      const db = await database();
      return begun(db, await db.beginReadOnly());
    },
    // `transaction` is undefined only when start failed, and then nothing is committed.
    commit: ({ transaction }) => transaction?.commit().execute(),
    // A transaction the request's time bound already ended is not rolled back twice.
    rollback: async ({ transaction }) => {
      if (transaction !== undefined && stillOpen(transaction)) await transaction.rollback().execute();
    },
    clear: async ({ transaction }) => {
      if (transaction === undefined) return;
      try {
        await origin.get(transaction)?.release(transaction);
      } finally {
        await ended?.(transaction);
      }
    },
  };
}
