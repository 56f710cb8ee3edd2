import { createHash, timingSafeEqual } from 'node:crypto';

const DEMO_PASSWORD = 'hickory';

/**
 * The showcase's admin password: `HICKORY_ADMIN_PASSWORD`, or `hickory` (shown on the login page:
 * it is a demo).
 *
 * @example
 * ```ts
 * adminPassword(); // 'hickory'
 * ```
 */
function adminPassword(): string {
  return process.env['HICKORY_ADMIN_PASSWORD'] || DEMO_PASSWORD;
}

/**
 * True when `NODE_ENV` is `production` (any case, spaces around ignored): where the showcase's demo
 * settings (password, session secret) are refused.
 *
 * @example
 * ```ts
 * isProduction({ NODE_ENV: ' Production ' }); // true
 * ```
 */
export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['NODE_ENV']?.trim().toLowerCase() === 'production';
}

/**
 * Refuses to serve in production with the demo password: with `NODE_ENV=production` (any case,
 * spaces around ignored) and no `HICKORY_ADMIN_PASSWORD`, throws a message naming both.
 *
 * @example
 * ```ts
 * kernel.hooks.ready.tap('showcase', () => requireAdminPassword());
 * ```
 */
export function requireAdminPassword(env: NodeJS.ProcessEnv = process.env): void {
  if (isProduction(env) && !env['HICKORY_ADMIN_PASSWORD']) {
    throw new Error(
      `NODE_ENV is production but HICKORY_ADMIN_PASSWORD is not set: the showcase's /admin/ would open with the demo password "${DEMO_PASSWORD}". Set HICKORY_ADMIN_PASSWORD to a password of your own.`,
    );
  }
}

/**
 * True when `given` is the admin password (compared in constant time).
 *
 * @example
 * ```ts
 * passwordMatches('hickory'); // true by default
 * ```
 */
export function passwordMatches(given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(adminPassword()));
}
