import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

/** The showcase's database connection (better-sqlite3). */
export type Connection = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS authors (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS books (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  author_id INTEGER REFERENCES authors(id),
  checked_out INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO authors (id, name) VALUES (1, 'Frank Herbert'), (2, 'Jane Austen');
`;

/**
 * Where `npm start` keeps the showcase's books: `HICKORY_SANDBOX_DB` when set (`:memory:` for a
 * database that lives as long as the process), else `sandbox/data/books.sqlite`.
 *
 * @example
 * ```ts
 * databaseFile(); // '/…/sandbox/data/books.sqlite'
 * ```
 */
export function databaseFile(): string {
  return process.env['HICKORY_SANDBOX_DB'] || fileURLToPath(new URL('../../data/books.sqlite', import.meta.url));
}

/**
 * Opens (and creates when missing) the showcase's SQLite database: the schema and the two
 * authors are there on return. A file database uses write-ahead logging, so a reader in another
 * process (a second `hickory serve` worker) is not blocked by a writer.
 *
 * @example
 * ```ts
 * const db = openDatabase(':memory:');
 * db.prepare('SELECT count(*) AS n FROM authors').get(); // { n: 2 }
 * ```
 */
export function openDatabase(file: string): Connection {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // Another worker's write transaction: wait for it rather than fail at once.
  db.pragma('busy_timeout = 2000');
  db.exec(SCHEMA);
  return db;
}
