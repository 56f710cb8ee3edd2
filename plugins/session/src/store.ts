/**
 * A value now, or a promise of it: a memory store answers at once, so a request pays no promise for it.
 *
 * @example
 * ```ts
 * const found: StoreAnswer<StoredSession | undefined> = store.get(key);
 * const session = found instanceof Promise ? await found : found;
 * ```
 */
export type StoreAnswer<T> = T | Promise<T>;

/**
 * A session as a store keeps it.
 *
 * @example
 * ```ts
 * const stored: StoredSession = { data: '{"user":"ann"}', expires: Date.now() + 86_400_000 };
 * ```
 */
export interface StoredSession {
  /** The session's data, JSON. */
  readonly data: string;
  /** When it expires, in milliseconds since the epoch. */
  readonly expires: number;
}

/**
 * Where sessions live (keyed by the SHA-256 of each session's id, which the plugin computes: a
 * store never sees an id a browser presents): `memoryStore()` (one process) or `sqlStore(db)` (SQLite, PostgreSQL: every
 * instance behind a load balancer shares them), or one of your own with these methods.
 *
 * @example
 * ```ts
 * const store: SessionStore = memoryStore({ max: 50_000 });
 * await store.set('id', '{"user":"ann"}', Date.now() + 3_600_000);
 * ```
 */
export interface SessionStore {
  /** Creates what the store needs (a table); called once by the plugin at `ready()`. */
  init?(): Promise<void>;
  /** The session of `id`, or `undefined` when there is none or it has expired. */
  get(id: string): StoreAnswer<StoredSession | undefined>;
  /** Saves (creates or replaces) a session. */
  set(id: string, data: string, expires: number): StoreAnswer<void>;
  /** Moves the expiry of a session whose data did not change (rolling expiry). */
  touch(id: string, expires: number): StoreAnswer<void>;
  /** Removes a session. */
  destroy(id: string): StoreAnswer<void>;
  /** Removes sessions expired at `now`, a bounded number per call; answers how many. */
  sweep(now: number): StoreAnswer<number>;
  /** How often the plugin calls `sweep`, in milliseconds (0: never). */
  readonly sweepInterval: number;
}
