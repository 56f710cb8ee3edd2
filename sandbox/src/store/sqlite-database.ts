import { E_TIMEOUT, Mutex, Semaphore, withTimeout, type MutexInterface } from 'async-mutex';
import { Kysely, SqliteDialect } from 'kysely';
import { databaseBusy } from './busy.ts';
import { migrateToLatest } from './migrations.ts';
import { stillOpen, type ShowcaseDatabase } from './showcase-database.ts';
import { openSqliteConnection, type SqliteConnection } from './sqlite-connection.ts';
import { SqliteWriterDialect } from './sqlite-writer-dialect.ts';
import type { ShowcaseTables, ShowcaseTransaction } from './tables.ts';

/** The bounds of {@link openSqliteDatabase}. */
export interface SqliteOptions {
  /** How long a write transaction waits for the one writer connection (default 5 s). */
  writeWaitMs?: number;
  /** How many read-only connections a file database keeps (default 8). */
  readers?: number;
  /** How long a read transaction waits for one of them (default 5 s). */
  readWaitMs?: number;
}

interface Reader {
  readonly connection: SqliteConnection;
  readonly db: Kysely<ShowcaseTables>;
}

// A turn taken from a lane, or a 503 when the bound ran out first.
async function take(lane: Pick<MutexInterface, 'acquire'>): Promise<() => void> {
  try {
    return await lane.acquire();
  } catch (error) {
    if (error === E_TIMEOUT) databaseBusy();
    throw error;
  }
}

/**
 * Opens the showcase's SQLite database (creating and migrating it) as a single-writer database:
 * every write transaction takes the one writer connection in turn (`BEGIN IMMEDIATE`), waiting at
 * most `writeWaitMs`; read-only transactions take one of `readers` read-only connections, which
 * in WAL mode read their snapshot while the writer writes — a read never waits for a write. A
 * `:memory:` database exists in one connection only, so there everything takes the writer's turn.
 *
 * @example
 * ```ts
 * const database = await openSqliteDatabase('sandbox/data/books.sqlite');
 * const trx = await database.beginReadOnly();
 * ```
 */
export async function openSqliteDatabase(file: string, options: SqliteOptions = {}): Promise<ShowcaseDatabase> {
  const { writeWaitMs = 5000, readers: readerCount = 8, readWaitMs = 5000 } = options;
  const writerConnection = openSqliteConnection(file);
  const writer = new Kysely<ShowcaseTables>({ dialect: new SqliteWriterDialect({ database: writerConnection }) });
  try {
    await migrateToLatest(writer, 'sqlite');
  } catch (error) {
    await writer.destroy();
    throw error;
  }
  // async-mutex's withTimeout: a waiter past the bound is rejected (and its turn, when it comes, given back).
  const writerLane = withTimeout(new Mutex(), writeWaitMs);
  const memory = file === ':memory:';
  const readerSlots = withTimeout(new Semaphore(readerCount), readWaitMs);
  const idle: Reader[] = [];
  const opened: Reader[] = [];
  const leases = new WeakMap<ShowcaseTransaction, () => void>();

  async function takeWriter(): Promise<() => void> {
    const release = await take(writerLane);
    try {
      // A ROLLBACK that failed earlier (see release) left a transaction open: it is nobody's now.
      if (writerConnection.inTransaction) writerConnection.exec('ROLLBACK');
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  async function takeReader(): Promise<[Reader, () => void]> {
    const [, releaseSlot] = await readerSlots.acquire().catch((error: unknown) => (error === E_TIMEOUT ? databaseBusy() : Promise.reject(error)));
    let reader = idle.pop();
    if (reader === undefined) {
      try {
        const connection = openSqliteConnection(file, { readonly: true });
        reader = { connection, db: new Kysely<ShowcaseTables>({ dialect: new SqliteDialect({ database: connection }) }) };
        opened.push(reader);
      } catch (error) {
        releaseSlot();
        throw error;
      }
    }
    const taken = reader;
    const release = () => (idle.push(taken), releaseSlot());
    try {
      if (taken.connection.inTransaction) taken.connection.exec('ROLLBACK');
    } catch (error) {
      release();
      throw error;
    }
    return [taken, release];
  }

  async function begun(db: Kysely<ShowcaseTables>, release: () => void): Promise<ShowcaseTransaction> {
    try {
      const trx = await db.startTransaction().execute();
      leases.set(trx, release);
      return trx;
    } catch (error) {
      release();
      throw error;
    }
  }

  return {
    dialect: 'sqlite',
    begin: async () => begun(writer, await takeWriter()),
    beginReadOnly: async () => {
      if (memory) return begun(writer, await takeWriter());
      const [reader, release] = await takeReader();
      return begun(reader.db, release);
    },
    async release(trx) {
      const release = leases.get(trx);
      if (release === undefined) return;
      leases.delete(trx);
      try {
        if (stillOpen(trx)) await trx.rollback().execute();
      } finally {
        release();
      }
    },
    async read(work) {
      if (memory) {
        const release = await takeWriter();
        try {
          return await work(writer);
        } finally {
          release();
        }
      }
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
