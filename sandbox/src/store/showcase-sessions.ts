import type { Kysely } from 'kysely';
import { sqlStore, type SessionStore } from '@hickory/app';
import type { Library } from './library.ts';
import type { ShowcaseTables } from './tables.ts';

/** How often each process deletes expired sessions (at most 500 at a time: `sqlStore`'s batch). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The showcase's session store: `sqlStore`'s `hickory_sessions` table in the showcase's own
 * database (the SQLite file or PostgreSQL), so every instance and every `hickory serve` worker
 * shares the admin sessions, and a sign-out ends one everywhere at once.
 *
 * A small adapter over `sqlStore` rather than `sqlStore(db)` itself, for two reasons:
 * - the database opens at `ready()` (`library.open()`, after the plugins were made), so there is
 *   no Kysely yet when `sessionPlugin` takes its store; each call asks the library for it;
 * - on SQLite no one Kysely fits both sides. A session is read before routing, on one of the
 *   read-only connections (`library.read`), so that an admin page never queues behind another
 *   request's write transaction (in WAL mode a read never waits for the writer); the plugin's
 *   writes come after the request's transaction was committed and gave the writer back, and go
 *   through the one writer connection outside any transaction (`database.autocommit`), where the
 *   read-only connections would refuse them. On PostgreSQL both are the pool.
 *
 * @example
 * ```ts
 * createApp({ root, hooks: [library.hook], plugins: [[sessionPlugin, { secret, store: showcaseSessionStore(library) }]] });
 * ```
 */
export function showcaseSessionStore(library: Library): SessionStore {
  // One sqlStore per Kysely (the writer, each reader): made on first use, gone with its database.
  const stores = new WeakMap<Kysely<ShowcaseTables>, SessionStore>();
  const on = (db: Kysely<ShowcaseTables>): SessionStore => {
    let store = stores.get(db);
    if (store === undefined) stores.set(db, (store = sqlStore(db, { sweepInterval: SWEEP_INTERVAL_MS })));
    return store;
  };
  const writer = async (): Promise<SessionStore> => on((await library.open()).autocommit);
  return {
    sweepInterval: SWEEP_INTERVAL_MS,
    init: async () => (await writer()).init?.(),
    get: (id) => library.read(async (db) => on(db).get(id)),
    set: async (id, data, expires) => (await writer()).set(id, data, expires),
    touch: async (id, expires) => (await writer()).touch(id, expires),
    destroy: async (id) => (await writer()).destroy(id),
    // On a timer, possibly as the app closes: a closed database is not opened again for it.
    sweep: async (now) => {
      const database = library.ifOpen();
      return database === undefined ? 0 : on((await database).autocommit).sweep(now);
    },
  };
}
