// The response fields of draft-ietf-httpapi-ratelimit-headers-10 (the latest draft, which
// replaced RateLimit-Limit/-Remaining/-Reset with two Structured Field Lists, RFC 9651):
//   RateLimit-Policy: "default";q=100;w=60          (each policy: quota q per window w seconds)
//   RateLimit: "default";r=0;t=30                   (remaining quota r, seconds t until it resets)
// One List item per policy that applied to the request (the app-wide one, a handler's own).
import type { Policy } from './options.ts';

/** What one policy said about one request. */
export interface Verdict {
  readonly policy: Policy;
  /** Requests left in this window. */
  readonly remaining: number;
  /** Milliseconds until the window ends (and `remaining` is back to `points`). */
  readonly resetMs: number;
  /** False once the client is past the limit. */
  readonly allowed: boolean;
}

/**
 * The `RateLimit-Policy` and `RateLimit` field values for the policies that applied.
 *
 * @example
 * ```ts
 * rateLimitFields([{ policy: { name: 'default', points: 100, duration: 60 }, remaining: 0, resetMs: 29_100, allowed: false }]);
 * // { policy: '"default";q=100;w=60', limit: '"default";r=0;t=30' }
 * ```
 */
export function rateLimitFields(verdicts: readonly Verdict[]): { policy: string; limit: string } {
  let policy = '';
  let limit = '';
  for (const verdict of verdicts) {
    const name = sfString(verdict.policy.name);
    if (policy !== '') {
      policy += ', ';
      limit += ', ';
    }
    policy += `${name};q=${verdict.policy.points};w=${verdict.policy.duration}`;
    limit += `${name};r=${verdict.remaining};t=${seconds(verdict.resetMs)}`;
  }
  return { policy, limit };
}

/**
 * `Retry-After` in whole seconds, never 0 (a client told 0 would retry at once, still refused).
 *
 * @example
 * ```ts
 * retryAfter(1200); // '2'
 * ```
 */
export function retryAfter(resetMs: number): string {
  return String(Math.max(1, seconds(resetMs)));
}

function seconds(ms: number): number {
  return ms <= 0 ? 0 : Math.ceil(ms / 1000);
}

// A Structured Field String: printable ASCII, with `"` and `\` escaped (RFC 9651 §3.3.3).
function sfString(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')}"`;
}
