import type { Kysely } from 'kysely';
import { sessionError } from './errors.ts';
import type { SessionStore, StoredSession } from './store.ts';
import { checkStoreOptions } from './store-options.ts';

/**
 * Options of {@link sqlStore}.
 *
 * @example
 * ```ts
 * sqlStore(db, { table: 'web_sessions', timeout: 2_000 });
 * ```
 */
export interface SqlStoreOptions {
  /** The table (created at `ready()` when missing). Default `hickory_sessions`. */
  table?: string;
  /** Most expired sessions one sweep deletes. Default 500. */
  sweepBatch?: number;
  /** Milliseconds between sweeps (0: none; expired sessions are still never returned). Default 60 000. */
  sweepInterval?: number;
  /** Milliseconds a query may take before the request fails (a 500) instead of waiting. Default 5 000. */
  timeout?: number;
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Sessions in a SQL table through Kysely, on SQLite (better-sqlite3) or PostgreSQL (pg): every
 * instance using the same database shares them. At `ready()` it creates the table when missing:
 *
 * ```sql
 * CREATE TABLE IF NOT EXISTS hickory_sessions (id varchar(64) PRIMARY KEY, data text NOT NULL, expires bigint NOT NULL);
 * CREATE INDEX IF NOT EXISTS hickory_sessions_expires ON hickory_sessions (expires);
 * ```
 *
 * `expires` is milliseconds since the epoch; expired rows are never returned and are deleted a
 * bounded number at a time (`sweepBatch`) every `sweepInterval`. Every query is bounded by `timeout`.
 *
 * @example
 * ```ts
 * const db = new Kysely({ dialect: new PostgresDialect({ pool: new Pool({ connectionString }) }) });
 * createKernel().use(sessionPlugin, { secret, store: sqlStore(db) });
 * ```
 */
export function sqlStore(db: Kysely<any>, options: SqlStoreOptions = {}): SessionStore {
  checkStoreOptions('sqlStore', options, { sweepBatch: 1, sweepInterval: 0, timeout: 1 }, ['table']);
  const table = options.table ?? 'hickory_sessions';
  if (typeof table !== 'string' || !TABLE_NAME.test(table)) {
    throw sessionError('HICKORY_ERR_SESSION_STORE', 'sqlStore: table', `must be a plain SQL name (letters, digits, _), got ${JSON.stringify(table)}`);
  }
  const batch = options.sweepBatch ?? 500;
  const timeout = options.timeout ?? 5_000;
  const bounded = <T>(what: string, query: Promise<T>): Promise<T> => withTimeout(query, timeout, what);
  return {
    sweepInterval: options.sweepInterval ?? 60_000,
    async init() {
      // Two instances starting together can both miss the table: PostgreSQL then fails one
      // CREATE … IF NOT EXISTS on its catalog's unique index. A second try finds the table there.
      await retryOnce(() => bounded('CREATE TABLE', createTable(db, table)));
      await retryOnce(() => bounded('CREATE INDEX', db.schema.createIndex(`${table}_expires`).ifNotExists().on(table).column('expires').execute()));
    },
    async get(id) {
      const row = (await bounded('SELECT', db.selectFrom(table).select(['data', 'expires']).where('id', '=', id).executeTakeFirst())) as { data: string; expires: number | string | bigint } | undefined;
      if (row === undefined) return undefined;
      // PostgreSQL's bigint arrives as a string (node-postgres keeps its precision).
      const stored: StoredSession = { data: row.data, expires: Number(row.expires) };
      return stored.expires > Date.now() ? stored : undefined;
    },
    async set(id, data, expires) {
      await bounded(
        'INSERT',
        db
          .insertInto(table)
          .values({ id, data, expires })
          .onConflict((conflict) => conflict.column('id').doUpdateSet({ data, expires }))
          .execute(),
      );
    },
    async touch(id, expires) {
      await bounded('UPDATE', db.updateTable(table).set({ expires }).where('id', '=', id).execute());
    },
    async destroy(id) {
      await bounded('DELETE', db.deleteFrom(table).where('id', '=', id).execute());
    },
    async sweep(now) {
      // A bounded DELETE, as both SQLite and PostgreSQL run it: DELETE … LIMIT is SQLite's only.
      const expired = db.selectFrom(table).select('id').where('expires', '<=', now).limit(batch);
      const result = await bounded('DELETE (sweep)', db.deleteFrom(table).where('id', 'in', expired).executeTakeFirst());
      return Number(result.numDeletedRows);
    },
  };
}

function createTable(db: Kysely<any>, table: string): Promise<unknown> {
  return db.schema
    .createTable(table)
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('data', 'text', (column) => column.notNull())
    .addColumn('expires', 'bigint', (column) => column.notNull())
    .execute();
}

async function retryOnce(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (error) {
    if ((error as { code?: string }).code === 'HICKORY_ERR_SESSION_STORE_TIMEOUT') throw error;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await create();
  }
}

function withTimeout<T>(query: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(sessionError('HICKORY_ERR_SESSION_STORE_TIMEOUT', what, ms)), ms);
  });
  return Promise.race([query, late]).finally(() => clearTimeout(timer));
}
