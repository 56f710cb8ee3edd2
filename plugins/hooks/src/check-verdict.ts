import { HTTPError, type Request } from '@hickory/core';
import { isThenable } from '@hickory/core/kit';
import { describeValue } from '@hickory/dispatch/kit';

const REFUSED = 'You must be logged in with the right permissions to see this.';

/**
 * Turns what a permission check returned into its verdict: only `true` (or a promise of `true`)
 * lets the request through. A returned `HTTPError` is answered as if the check had thrown it;
 * anything else — `false`, nothing, `1`, `'false'`, `[]`, `{}`, an empty `Set` — is a 401.
 * Pecan reads `[]` and `{}` as false, where JavaScript's truthiness would let them through: so no
 * value but `true` counts as yes. A result that is neither `true` nor `false` (nor an
 * `HTTPError`) is also a warning outside production, once per check, naming it (`name()`).
 *
 * @example
 * ```ts
 * return verdictOf(check.call(controller, request), () => 'isStaff', request); // throws the 401 unless true
 * ```
 */
export function verdictOf(result: unknown, name: () => string, request: Request): undefined | Promise<undefined> {
  if (result === true) return undefined;
  if (isThenable(result)) return Promise.resolve(result).then((settled) => decide(settled, name, request));
  return decide(result, name, request);
}

function decide(result: unknown, name: () => string, request: Request): undefined {
  if (result === true) return undefined;
  if (result instanceof HTTPError) throw result;
  if (result !== false) warnNotBoolean(result, name(), request);
  throw new HTTPError(401, REFUSED);
}

// One warning per check (by its name) and process: a check that returns a string on every request
// would otherwise fill the log.
const warned = new Set<string>();

function warnNotBoolean(result: unknown, name: string, request: Request): void {
  if (warned.has(name) || isProduction()) return;
  warned.add(name);
  request.log.warn(
    `The permission check ${name} returned ${describeValue(result)}, which is neither true nor false: the request was refused (401). ` +
      'Only true lets a request through; return true or false (or throw abort(403)).',
  );
}

function isProduction(): boolean {
  return (process.env['NODE_ENV'] ?? '').trim().toLowerCase() === 'production';
}
