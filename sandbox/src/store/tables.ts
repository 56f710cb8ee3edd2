import type { ControlledTransaction, Generated } from 'kysely';

/** `authors`: the two authors of the nested example (seeded by the first migration). */
interface AuthorsTable {
  id: number;
  name: string;
}

/** `books`: ids are given by the database (SQLite `AUTOINCREMENT`, PostgreSQL `serial`). */
interface BooksTable {
  id: Generated<number>;
  name: string;
  author_id: number | null;
  /** 0 or 1 (an integer on both databases: one schema, no dialect switch in the queries). */
  checked_out: Generated<number>;
}

/**
 * The showcase's tables, as Kysely sees them (the same on SQLite and PostgreSQL).
 *
 * @example
 * ```ts
 * const db = new Kysely<ShowcaseTables>({ dialect });
 * await db.selectFrom('books').select(['id', 'name']).execute();
 * ```
 */
export interface ShowcaseTables {
  authors: AuthorsTable;
  books: BooksTable;
}

/**
 * One request's transaction: what the showcase's `TransactionHook` starts, and what
 * `hook.transaction()` gives a handler. It refuses every query once committed or rolled back.
 *
 * @example
 * ```ts
 * const trx: ShowcaseTransaction = await db.startTransaction().execute();
 * ```
 */
export type ShowcaseTransaction = ControlledTransaction<ShowcaseTables>;
