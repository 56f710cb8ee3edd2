import { createHash } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Verdict } from './fields.ts';
import type { Policy } from './options.ts';

/** What counts requests for one policy: a rate-limiter-flexible limiter. */
interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
}

/**
 * Counts requests against one policy. With a shared store (PostgreSQL), a store that fails or
 * does not answer within `timeoutMs` is replaced, for that request, by this process's own
 * bounded memory counter of the same policy: the limit then holds per instance rather than
 * across them. Neither failing open (every request allowed while the database is down: exactly
 * when an attacker's guesses would go uncounted) nor answering 503 (one database outage taking
 * down every page, the ones that never touch it included). `onStoreError` is told each time.
 *
 * @example
 * ```ts
 * const counter = new Counter(policy, postgresLimiter(pool, table, policy, 'app'), memory, 1000, log);
 * const verdict = await counter.consume(clientKey(request)); // { allowed, remaining, resetMs, policy }
 * ```
 */
export class Counter {
  constructor(
    readonly policy: Policy,
    private readonly limiter: Limiter,
    private readonly fallback: Limiter | undefined,
    private readonly timeoutMs: number,
    private readonly onStoreError: (error: unknown) => void,
  ) {}

  consume(key: string): Promise<Verdict> {
    const stored = storedKey(key);
    const counted = this.fallback === undefined ? this.limiter.consume(stored) : withTimeout(this.limiter.consume(stored), this.timeoutMs);
    return counted.then(
      (result) => this.verdict(result, true),
      (failure: unknown) => {
        if (failure instanceof RateLimiterRes) return this.verdict(failure, false);
        if (this.fallback === undefined) throw failure;
        this.onStoreError(failure);
        return this.fallback.consume(stored).then(
          (result) => this.verdict(result, true),
          (refused: unknown) => {
            if (refused instanceof RateLimiterRes) return this.verdict(refused, false);
            throw refused;
          },
        );
      },
    );
  }

  private verdict(result: RateLimiterRes, allowed: boolean): Verdict {
    return { policy: this.policy, allowed, remaining: Math.max(0, result.remainingPoints), resetMs: result.msBeforeNext };
  }
}

// Keys are stored as given up to 100 characters; a longer one (a custom `key` function's) is
// replaced by its SHA-256, so that neither memory nor the table's varchar(255) grows with it.
function storedKey(key: string): string {
  if (typeof key !== 'string') throw new TypeError(`a rate-limit key function must return a string, not ${typeof key}`);
  return key.length <= 100 ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the rate-limit store did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
