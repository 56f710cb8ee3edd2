import { E_TIMEOUT, Semaphore, withTimeout } from 'async-mutex';
import { Kysely } from 'kysely';
import { databaseBusy } from './busy.ts';
import { migrateToLatest, type MigrationOptions } from './migrations.ts';
import { stillOpen, type ShowcaseDatabase } from './showcase-database.ts';
import { openSqliteConnection } from './sqlite-connection.ts';
import { SqliteRequestDialect } from './sqlite-request-dialect.ts';
import type { ShowcaseTables, ShowcaseTransaction } from './tables.ts';

/** The bounds of {@link openSqliteDatabase} (and whether a new database gets seed books). */
export interface SqliteOptions extends MigrationOptions {
  /** How long a write transaction waits for the one writer connection (default 5 s). */
  writeWaitMs?: number;
  /** How many read-only connections a file database keeps (default 8). */
  readers?: number;
  /** How long a read transaction waits for one of them (default 5 s). */
  readWaitMs?: number;
}

interface Reader {
  readonly db: Kysely<ShowcaseTables>;
}

/**
 * Opens the showcase's SQLite database (creating and migrating it) as a single-writer database:
 * every write transaction takes the one writer connection in turn and SQLite's write lock up front
 * (`BEGIN IMMEDIATE`, through {@link SqliteRequestDialect}), waiting for both at most `writeWaitMs`
 * — for another process's lock (a second `hickory serve` worker) on timers, so the event loop keeps
 * serving — then 503 with `Retry-After`. Read-only transactions take one of `readers` read-only
 * connections, which in WAL mode read their snapshot while the writer writes: a read never waits
 * for a write. A `:memory:` database exists in one connection only, so there everything takes the
 * writer's turn. A request that asks for the writer its own transaction holds gets an error at once.
 *
 * @example
 * ```ts
 * const database = await openSqliteDatabase('sandbox/data/books.sqlite');
 * const trx = await database.beginReadOnly();
 * ```
 */
export async function openSqliteDatabase(file: string, options: SqliteOptions = {}): Promise<ShowcaseDatabase> {
  const { writeWaitMs = 5000, readers: readerCount = 8, readWaitMs = 5000 } = options;
  const writer = new Kysely<ShowcaseTables>({ dialect: new SqliteRequestDialect({ database: openSqliteConnection(file), waitMs: writeWaitMs }) });
  try {
    await migrateToLatest(writer, 'sqlite', { seed: options.seed });
  } catch (error) {
    await writer.destroy();
    throw error;
  }
  const memory = file === ':memory:';
  // async-mutex's withTimeout: a waiter past the bound is rejected (and its turn, when it comes, given back).
  const readerSlots = withTimeout(new Semaphore(readerCount), readWaitMs);
  const idle: Reader[] = [];
  const opened: Reader[] = [];
  // What a read transaction gives back when it ends: its reader.
  const leases = new WeakMap<ShowcaseTransaction, () => void>();
  // What a write transaction ends with: Kysely gives the writer back at commit or rollback.
  const writes = new WeakSet<ShowcaseTransaction>();

  async function takeReader(): Promise<[Reader, () => void]> {
    const [, releaseSlot] = await readerSlots.acquire().catch((error: unknown) => (error === E_TIMEOUT ? databaseBusy() : Promise.reject(error)));
    let reader = idle.pop();
    if (reader === undefined) {
      try {
        const connection = openSqliteConnection(file, { readonly: true });
        reader = { db: new Kysely<ShowcaseTables>({ dialect: new SqliteRequestDialect({ database: connection, waitMs: readWaitMs }) }) };
        opened.push(reader);
      } catch (error) {
        releaseSlot();
        throw error;
      }
    }
    const taken = reader;
    return [taken, () => (idle.push(taken), releaseSlot())];
  }

  async function beginWrite(): Promise<ShowcaseTransaction> {
    const trx = await writer.startTransaction().execute();
    writes.add(trx);
    return trx;
  }

  return {
    dialect: 'sqlite',
    autocommit: writer,
    begin: beginWrite,
    beginReadOnly: async () => {
      if (memory) return beginWrite();
      const [reader, release] = await takeReader();
      try {
        const trx = await reader.db.startTransaction().setAccessMode('read only').execute();
        leases.set(trx, release);
        return trx;
      } catch (error) {
        release();
        throw error;
      }
    },
    async release(trx) {
      const release = leases.get(trx);
      if (release === undefined && !writes.has(trx)) return;
      leases.delete(trx);
      writes.delete(trx);
      try {
        // Kysely gives the connection back even when the ROLLBACK fails.
        if (stillOpen(trx)) await trx.rollback().execute();
      } finally {
        release?.();
      }
    },
    async read(work) {
      // The writer's turn for the whole of `work` (refused at once inside a request that holds it).
      if (memory) return writer.connection().execute(work);
      const [reader, release] = await takeReader();
      try {
        return await work(reader.db);
      } finally {
        release();
      }
    },
    async close() {
      await Promise.all(opened.map((reader) => reader.db.destroy()));
      await writer.destroy();
    },
  };
}
