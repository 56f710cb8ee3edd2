import { sql } from 'kysely';
import type { Request } from '@hickory/core';
import { compressPlugin, corsPlugin, csrfPlugin, healthPlugin, openapiPlugin, rateLimitPlugin, securityHeadersPlugin, type PluginEntry } from '@hickory/app';
import { adminSessions } from './admin-session.ts';
import { showcasePlugin } from './showcase-plugin.ts';
import type { Library } from './store/library.ts';
import type { UploadShelf } from './upload-shelf.ts';

/** The origins allowed to call the JSON API from a page of theirs when `HICKORY_CORS_ORIGINS` is unset. */
export const DEFAULT_CORS_ORIGINS: readonly string[] = ['http://localhost:3000', 'http://127.0.0.1:3000'];

/**
 * The origins `HICKORY_CORS_ORIGINS` names (comma-separated, e.g. `https://app.example.com,https://admin.example.com`),
 * or {@link DEFAULT_CORS_ORIGINS}. Each must be an origin (scheme, host, port: no path), else a
 * clear error at start naming the variable.
 *
 * @example
 * ```ts
 * corsOrigins({ HICKORY_CORS_ORIGINS: 'https://app.example.com' }); // ['https://app.example.com']
 * corsOrigins({}); // ['http://localhost:3000', 'http://127.0.0.1:3000']
 * ```
 */
export function corsOrigins(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const text = env['HICKORY_CORS_ORIGINS']?.trim();
  if (!text) return DEFAULT_CORS_ORIGINS;
  return text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '').map((entry) => {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = undefined;
    }
    // An origin has no path, and is written as browsers send it: `https://host[:port]`.
    if (origin === undefined || origin === 'null' || origin !== entry.replace(/\/$/, '')) {
      throw new Error(`HICKORY_CORS_ORIGINS must be a comma-separated list of origins such as https://app.example.com (got "${entry}").`);
    }
    return origin;
  });
}

// The JSON API: what another site's page may fetch (the HTML pages and /admin/ are not for it).
const JSON_API = /^\/(books|authors|store|items)(\/|\.json|$)|^\/catalog\/books\/(index\.json)?$|^\/openapi\.json$/;

/**
 * True for a path of the showcase's JSON API: `/books/…`, `/authors/…`, `/store/…`, `/items/`,
 * `/catalog/books/` and `/openapi.json`.
 *
 * @example
 * ```ts
 * isJsonApiPath('/books/1.json'); // true
 * isJsonApiPath('/admin/'); // false
 * ```
 */
export function isJsonApiPath(path: string): boolean {
  return JSON_API.test(path);
}

/**
 * Every plugin the showcase uses, in order: its own (database opened at `ready()`, closed with the
 * app), then the production plugins a real deployment turns on — CORS for the JSON API (origins
 * from `HICKORY_CORS_ORIGINS`), helmet's security headers, `/healthz` and `/readyz` (readiness
 * checks the database), the admin sessions, the refusal of unsafe requests from other sites (CSRF), the rate limit that `@rate_limit` asks
 * for on the admin login, and the OpenAPI document with its page. `config.ts` and `createSandbox()` both use this list.
 *
 * @example
 * ```ts
 * createApp({ root: new RootController(library, shelf), hooks: [library.hook], plugins: showcasePlugins(library, shelf) });
 * ```
 */
export function showcasePlugins(library: Library, uploads?: UploadShelf, env: NodeJS.ProcessEnv = process.env): PluginEntry[] {
  const origins = corsOrigins(env);
  return [
    showcasePlugin(library, uploads),
    [corsPlugin, { origin: (origin: string, request: Request) => origins.includes(origin) && isJsonApiPath(request.path), maxAge: 600 }],
    securityHeadersPlugin,
    // br or gzip for pages, JSON, the stylesheet (static files too), by the client's Accept-Encoding.
    compressPlugin,
    // The admin sign-in's sessions, in the showcase's database (every instance shares them).
    adminSessions(library, env),
    // Forms posted from another site (Fetch Metadata, then Origin) are refused 403 before routing.
    csrfPlugin,
    // No app-wide limit: only the handlers marked @rate_limit (the admin login) are limited.
    rateLimitPlugin,
    [healthPlugin, { checks: { database: () => library.read((db) => sql`select 1`.execute(db)) } }],
    [openapiPlugin, { title: 'Hickory sandbox', version: '0.1.0' }],
  ];
}
