import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

/**
 * rate-limiter-flexible's memory limiter with a bound on the clients it counts at once.
 * `RateLimiterMemory` keeps one record and one timer per key until its window ends, so a flood
 * of distinct keys (addresses, or whatever a `key` function returns) grows it without limit
 * within a window. This one also keeps its keys in least-recently-used order (a `Map`, which
 * keeps insertion order: a key seen again is moved to the end) and, at `maxKeys`, deletes the
 * least recently seen key's record (and its timer) before counting a new one. The cost of the
 * bound: under such a flood, a client not seen for a while starts a fresh window; a client that
 * keeps sending stays among the most recent and keeps its count.
 *
 * @example
 * ```ts
 * const limiter = new BoundedMemoryLimiter({ points: 5, duration: 60, keyPrefix: 'login' }, 50_000);
 * await limiter.consume('203.0.113.7'); // rejects with a RateLimiterRes past 5 a minute
 * ```
 */
export class BoundedMemoryLimiter extends RateLimiterMemory {
  // Keys counted now, least recently seen first. (Keys whose window ended are still listed until
  // they come first: harmless, they are the first dropped.)
  readonly #recent = new Map<string, true>();

  constructor(
    options: { points: number; duration: number; keyPrefix: string },
    private readonly maxKeys: number,
  ) {
    super(options);
  }

  /** How many keys it holds now (at most `maxKeys`). */
  get size(): number {
    return this.#recent.size;
  }

  override consume(key: string | number, pointsToConsume?: number, options?: Record<string, unknown>): Promise<RateLimiterRes> {
    const name = String(key);
    if (!this.#recent.delete(name) && this.#recent.size >= this.maxKeys) {
      const oldest = this.#recent.keys().next().value as string;
      this.#recent.delete(oldest);
      void this.delete(oldest);
    }
    this.#recent.set(name, true);
    return super.consume(key, pointsToConsume, options);
  }
}
