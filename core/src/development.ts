/**
 * True when `NODE_ENV` names a development setting: unset (or empty), `development` or `test`,
 * trimmed, in any case. Anything else — `production`, `Production`, `prod`, `"production "`,
 * `staging` — is not, so that what only a developer may see (the debug page) fails closed.
 *
 * @example
 * ```ts
 * isDevelopment(' Development '); // true
 * isDevelopment('prod');          // false
 * ```
 */
export function isDevelopment(nodeEnv: string | undefined = process.env['NODE_ENV']): boolean {
  const value = (nodeEnv ?? '').trim().toLowerCase();
  return value === '' || value === 'development' || value === 'test';
}
