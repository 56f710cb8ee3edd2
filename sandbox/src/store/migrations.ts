import { Migrator, type Kysely, type Migration } from 'kysely';
import type { ShowcaseTables } from './tables.ts';

/** The two databases the showcase speaks. */
export type DialectName = 'sqlite' | 'postgres';

/** What {@link migrateToLatest} does besides the schema. */
export interface MigrationOptions {
  /**
   * Puts a few books on the shelves when the database has none ({@link SEED_BOOKS}): what
   * `npm start` does, so a fresh showcase shows pages with data (default false: tests count rows).
   */
  seed?: boolean;
}

/**
 * The books a fresh showcase starts with (with `seed: true`), by author id (the first migration's
 * Frank Herbert and Jane Austen).
 */
export const SEED_BOOKS: ReadonlyArray<{ name: string; author_id: number }> = Object.freeze([
  { name: 'Dune Messiah', author_id: 1 },
  { name: 'Children of Dune', author_id: 1 },
  { name: 'Pride and Prejudice', author_id: 2 },
  { name: 'Persuasion', author_id: 2 },
  { name: 'Sense and Sensibility', author_id: 2 },
]);

// Kysely's Migrator runs these in name order, once each, and records them in `kysely_migration`.
// `ifNotExists` and the `onConflict` seed: a SQLite file made before migrations existed (same
// tables, no record of them) is adopted as it is.
function migrations(dialect: DialectName, { seed = false }: MigrationOptions): Record<string, Migration> {
  return {
    '001-authors-and-books': {
      async up(db: Kysely<ShowcaseTables>) {
        await db.schema
          .createTable('authors')
          .ifNotExists()
          .addColumn('id', 'integer', (column) => column.primaryKey())
          .addColumn('name', 'text', (column) => column.notNull())
          .execute();
        const books = db.schema.createTable('books').ifNotExists();
        // The one difference: how each database hands out ids it never gives again.
        await (dialect === 'sqlite'
          ? books.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
          : books.addColumn('id', 'serial', (column) => column.primaryKey()))
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('author_id', 'integer', (column) => column.references('authors.id'))
          .addColumn('checked_out', 'integer', (column) => column.notNull().defaultTo(0))
          .execute();
        await db
          .insertInto('authors')
          .values([
            { id: 1, name: 'Frank Herbert' },
            { id: 2, name: 'Jane Austen' },
          ])
          .onConflict((conflict) => conflict.column('id').doNothing())
          .execute();
      },
    },
    // The showcase's own admin sessions, until they moved to @hickory/session (dropped by 004).
    '002-sessions': {
      async up(db: Kysely<ShowcaseTables>) {
        await db.schema
          .createTable('sessions')
          .ifNotExists()
          .addColumn('id_hash', 'text', (column) => column.primaryKey())
          .addColumn('expires_at', 'bigint', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('sessions_expires_at').ifNotExists().on('sessions').column('expires_at').execute();
      },
    },
    // Once per database, like every migration (so never twice, even when several instances start
    // together: the Migrator serializes them), and only into an empty shelf: a database that
    // already holds books (one made before this migration) keeps exactly what it has.
    '003-seed-books': {
      async up(db: Kysely<ShowcaseTables>) {
        if (!seed) return;
        const any = await db.selectFrom('books').select('id').limit(1).executeTakeFirst();
        if (any === undefined) await db.insertInto('books').values([...SEED_BOOKS]).execute();
      },
    },
    // Admin sessions are @hickory/session's now, in sqlStore's `hickory_sessions` (which it
    // creates at ready()): the old table goes, and with it every session signed in before.
    '004-drop-sessions': {
      async up(db: Kysely<ShowcaseTables>) {
        await db.schema.dropTable('sessions').ifExists().execute();
      },
    },
  };
}

/**
 * Creates or updates the showcase's schema (authors and their two rows, books) to the
 * latest migration; with `seed: true`, a new database's empty shelf gets {@link SEED_BOOKS}. Several processes may call it at once: PostgreSQL serializes them with an
 * advisory lock, SQLite with the write lock of the migration's transaction.
 *
 * @example
 * ```ts
 * await migrateToLatest(db, 'postgres');
 * await migrateToLatest(db, 'sqlite', { seed: true }); // a few books when there are none
 * ```
 */
export async function migrateToLatest(db: Kysely<ShowcaseTables>, dialect: DialectName, options: MigrationOptions = {}): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(dialect, options) } });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`The showcase's ${dialect} schema could not be migrated${failed ? ` (migration ${failed})` : ''}: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
}
