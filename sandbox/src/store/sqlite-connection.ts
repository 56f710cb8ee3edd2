import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** A better-sqlite3 connection. */
export type SqliteConnection = Database.Database;

// How long opening a file may wait for another process that is switching it to WAL (two workers
// starting at once). SQLite waits inside the call, blocking the process: acceptable while the app
// starts, never while it serves — so once open, the connection waits for nothing (busy_timeout 0)
// and the showcase's dialect waits on timers instead (sqlite-request-dialect.ts).
const OPENING_BUSY_TIMEOUT_MS = 2000;

/**
 * Opens a connection to the showcase's SQLite database with its settings: write-ahead logging
 * for a file (readers in other connections and processes are not blocked by the writer), foreign
 * keys on, and no busy timeout (a lock held by another process is waited for without blocking the
 * event loop, by `SqliteRequestDialect`). `readonly` connections refuse every write; a file opened read-only
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
  // A reader is opened while serving (on first need): it never waits inside SQLite.
  const db = new Database(file, { readonly, fileMustExist: readonly, timeout: readonly ? 0 : OPENING_BUSY_TIMEOUT_MS });
  // The journal mode is the file's: the writer sets it once, readers find it.
  if (!memory && !readonly) db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 0');
  return db;
}
