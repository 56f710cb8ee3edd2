import { sessionPlugin, type PluginEntry, type Request } from '@hickory/app';
import { isProduction } from './admin-password.ts';
import type { Library } from './store/library.ts';
import { showcaseSessionStore } from './store/showcase-sessions.ts';

/**
 * The name of the showcase's admin session cookie (also its OpenAPI security scheme's).
 *
 * @example
 * ```ts
 * request.cookies[SESSION_COOKIE]; // '<id>.<signature>' once signed in
 * ```
 */
export const SESSION_COOKIE = 'hickory_admin';

// Eight hours without use end a session (each use moves the end: the plugin's rolling expiry).
const SESSION_SECONDS = 8 * 60 * 60;

// What the session records of a signed-in client (the showcase has one user).
const ADMIN = 'admin';

// Public, like the demo password: every instance of a demo signs alike with no setup. Refused in
// production (requireSessionSecret), where HICKORY_SESSION_SECRET must say one of one's own.
const DEMO_SECRET = 'hickory-showcase-demo-session-secret-not-for-production';

const MIN_SECRET = 32;

/**
 * The secrets that sign the session cookie: `HICKORY_SESSION_SECRET`, one secret of 32 characters
 * or more or a comma-separated list of them (the first signs, all verify: put a new one first, drop
 * the old one 8 hours later), the same on every instance; unset, the public demo secret. A secret
 * too short is refused, naming the variable (and never showing the secret).
 *
 * @example
 * ```ts
 * sessionSecrets({ HICKORY_SESSION_SECRET: `${fresh},${previous}` }); // [fresh, previous]
 * ```
 */
function sessionSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const text = env['HICKORY_SESSION_SECRET']?.trim();
  if (!text) return [DEMO_SECRET];
  const secrets = text.split(',').map((secret) => secret.trim());
  const short = secrets.findIndex((secret) => secret.length < MIN_SECRET);
  if (short !== -1) {
    throw new Error(
      `HICKORY_SESSION_SECRET must be a secret of ${MIN_SECRET} characters or more, or a comma-separated list of them (the first signs, all verify): secret ${short + 1} of ${secrets.length} has ${secrets[short]!.length}. Make one with \`openssl rand -base64 32\`.`,
    );
  }
  return secrets;
}

/**
 * Refuses to serve in production with the demo session secret: with `NODE_ENV=production` and no
 * `HICKORY_SESSION_SECRET`, throws a message naming both (anyone could sign a cookie with the
 * demo secret; the random session id behind it still guards the sign-in, but nothing signed
 * should rest on a published key).
 *
 * @example
 * ```ts
 * kernel.hooks.ready.tap('showcase', () => requireSessionSecret());
 * ```
 */
export function requireSessionSecret(env: NodeJS.ProcessEnv = process.env): void {
  if (isProduction(env) && !env['HICKORY_SESSION_SECRET']?.trim()) {
    throw new Error(
      "NODE_ENV is production but HICKORY_SESSION_SECRET is not set: the showcase's session cookies would be signed with its public demo secret. Set HICKORY_SESSION_SECRET to a random string of 32 characters or more, the same on every instance (`openssl rand -base64 32`).",
    );
  }
}

/**
 * The showcase's `sessionPlugin`: the `hickory_admin` cookie (signed, HttpOnly, SameSite=Lax,
 * Secure over https; 8 hours without use end it), the sessions kept in the showcase's database
 * ({@link showcaseSessionStore}), so every instance and worker knows them.
 *
 * @example
 * ```ts
 * createApp({ root, hooks: [library.hook], plugins: [showcasePlugin(library), adminSessions(library)] });
 * ```
 */
export function adminSessions(library: Library, env: NodeJS.ProcessEnv = process.env): PluginEntry {
  return [sessionPlugin, { secret: sessionSecrets(env), store: showcaseSessionStore(library), cookie: { name: SESSION_COOKIE, maxAge: SESSION_SECONDS } }];
}

/**
 * Signs the request's client in: a new session id (an id planted before the sign-in is worth
 * nothing after it), which records the admin. Saved by the plugin once the request's transaction
 * has committed.
 *
 * @example
 * ```ts
 * if (passwordMatches(password)) signIn(request);
 * ```
 */
export function signIn(request: Request): void {
  request.session.regenerate();
  request.session['user'] = ADMIN;
}

/**
 * Signs the request's client out: its session is deleted from the store (no instance accepts its
 * cookie any more) and the client is told to forget the cookie.
 *
 * @example
 * ```ts
 * signOut(request);
 * ```
 */
export function signOut(request: Request): void {
  request.session.destroy();
}

/**
 * True when the request's session is a signed-in admin's (read before routing by the plugin, so a
 * `check_permissions` can ask before the request's transaction begins).
 *
 * @example
 * ```ts
 * static override check_permissions(req: Request) { return isSignedIn(req); }
 * ```
 */
export function isSignedIn(request: Request): boolean {
  return request.session['user'] === ADMIN;
}
