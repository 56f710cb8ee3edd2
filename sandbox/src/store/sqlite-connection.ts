import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** A better-sqlite3 connection. */
export type SqliteConnection = Database.Database;

/** How long a connection waits for another process's write lock (a second `hickory serve` worker). */
const BUSY_TIMEOUT_MS = 2000;

/**
 * Opens a connection to the showcase's SQLite database with its settings: write-ahead logging
 * for a file (readers in other connections and processes are not blocked by the writer), foreign
 * keys on, and a busy timeout. `readonly` connections refuse every write; a file opened read-only
 * must already exist (the writer creates it, and its folder).
 *
 * @example
 * ```ts
 * const writer = openSqliteConnection('data/books.sqlite');
 * const reader = openSqliteConnection('data/books.sqlite', { readonly: true });
 * ```
 */
export function openSqliteConnection(file: string, { readonly = false } = {}): SqliteConnection {
  const memory = file === ':memory:';
  if (!memory && !readonly) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly, fileMustExist: readonly });
  // The journal mode is the file's: the writer sets it once, readers find it.
  if (!memory && !readonly) db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}
