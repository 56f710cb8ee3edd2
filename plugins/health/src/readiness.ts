import type { HealthCheck } from './options.ts';

/** One check's outcome, as the readiness answer shows it. */
export interface CheckOutcome {
  readonly status: 'ok' | 'error' | 'timeout';
  /** Why it failed: the error's message only (no stack, no cause, no fields), at most 200 characters. */
  readonly error?: string;
}

/** Every check's outcome, and the names of the failing ones. */
export interface Readiness {
  readonly failing: string[];
  readonly checks: Record<string, CheckOutcome>;
  /** The failures themselves, for the log (never sent). */
  readonly errors: Map<string, unknown>;
}

/**
 * Runs the checks concurrently, each bounded by `timeout` ms (a check still running then is
 * left to finish on its own: a promise cannot be cancelled, so a check should bound its own work
 * too, e.g. a pool's `connectionTimeoutMillis`).
 *
 * @example
 * ```ts
 * const { failing, checks } = await runChecks([['db', () => pool.query('SELECT 1')]], 1000);
 * ```
 */
export async function runChecks(checks: ReadonlyArray<readonly [string, HealthCheck]>, timeout: number): Promise<Readiness> {
  const outcomes = await Promise.all(checks.map(([, check]) => runOne(check, timeout)));
  const result: Readiness = { failing: [], checks: {}, errors: new Map() };
  checks.forEach(([name], i) => {
    const [outcome, error] = outcomes[i]!;
    result.checks[name] = outcome;
    if (outcome.status !== 'ok') {
      result.failing.push(name);
      result.errors.set(name, error);
    }
  });
  return result;
}

const TIMED_OUT = Symbol('timed out');

async function runOne(check: HealthCheck, timeout: number): Promise<[CheckOutcome, unknown?]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, timeout, TIMED_OUT);
  });
  try {
    // A check that throws at once fails like one that rejects.
    const value = await Promise.race([Promise.resolve().then(check), late]);
    if (value === TIMED_OUT) return [{ status: 'timeout', error: `no answer within ${timeout} ms` }];
    if (value === false) return [{ status: 'error', error: 'returned false' }];
    return [{ status: 'ok' }];
  } catch (error) {
    return [{ status: 'error', error: messageOf(error) }, error];
  } finally {
    clearTimeout(timer);
  }
}

// The message alone: a stack, a cause or an error's fields (a query, a connection string) stay in the log.
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'failed';
  const line = message.replace(/\s+/g, ' ').trim() || 'failed';
  return line.length <= 200 ? line : `${line.slice(0, 199)}…`;
}
