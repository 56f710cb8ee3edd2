import type { SessionStore, StoredSession } from './store.ts';
import { checkStoreOptions } from './store-options.ts';

/**
 * Options of {@link memoryStore}.
 *
 * @example
 * ```ts
 * memoryStore({ max: 50_000, sweepInterval: 30_000 });
 * ```
 */
export interface MemoryStoreOptions {
  /** Most sessions kept; past it the least recently saved is dropped. Default 10 000. */
  max?: number;
  /** Most sessions one sweep looks at. Default 1 000. */
  sweepBatch?: number;
  /** Milliseconds between sweeps of expired sessions (0: none; expired ones are still never returned). Default 60 000. */
  sweepInterval?: number;
}

/**
 * Sessions in this process's memory: bounded (`max`), expired ones never returned and swept a
 * bounded number at a time. Data is kept as JSON text, so no request shares an object with
 * another. For one process: behind a load balancer, or with `hickory serve --workers`, use
 * {@link sqlStore} so that every instance sees the same sessions.
 *
 * @example
 * ```ts
 * createKernel().use(sessionPlugin, { secret, store: memoryStore({ max: 50_000 }) });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): SessionStore {
  checkStoreOptions('memoryStore', options, { max: 1, sweepBatch: 1, sweepInterval: 0 });
  const max = options.max ?? 10_000;
  const batch = options.sweepBatch ?? 1_000;
  // Insertion order is save order: a session saved again moves to the end, so the first entries
  // are the least recently saved, the first to drop past `max` and (with one lifetime) the first to expire.
  const sessions = new Map<string, StoredSession>();
  const save = (id: string, stored: StoredSession): void => {
    sessions.delete(id);
    sessions.set(id, stored);
    if (sessions.size > max) sessions.delete(sessions.keys().next().value!);
  };
  return {
    sweepInterval: options.sweepInterval ?? 60_000,
    get(id) {
      const stored = sessions.get(id);
      if (stored === undefined) return undefined;
      if (stored.expires > Date.now()) return stored;
      sessions.delete(id);
      return undefined;
    },
    set(id, data, expires) {
      save(id, { data, expires });
    },
    touch(id, expires) {
      const stored = sessions.get(id);
      if (stored !== undefined) save(id, { data: stored.data, expires });
    },
    destroy(id) {
      sessions.delete(id);
    },
    sweep(now) {
      let removed = 0;
      let seen = 0;
      for (const [id, stored] of sessions) {
        if (seen++ >= batch) break;
        if (stored.expires > now) continue;
        sessions.delete(id);
        removed++;
      }
      return removed;
    },
  };
}
