// The sandbox app's config: `npm start` runs `hickory serve sandbox/config.ts`.
import { showcasePlugins } from './src/production.ts';
import { showcaseLibrary } from './src/store/library.ts';
import { SESSION_COOKIE } from './src/admin-session.ts';
import { showcaseUploads } from './src/upload-shelf.ts';

export default {
  server: { host: '127.0.0.1', port: 8080 },
  app: {
    root: './src/controllers/root.ts#RootController',
    template_path: '%(confdir)s/templates',
    static_root: '%(confdir)s/public',
    // 401: a refused /admin/ request shows the login form (with its 401 status); every other
    // error a visitor can meet is a page of the site's layout too (clients asking for JSON get JSON).
    errors: { 401: '/admin/login', 404: '/error/404', 500: '/error/500', ...Object.fromEntries([400, 405, 409, 413, 418, 429].map((status) => [status, '/error/other'])) },
    extra_template_vars: { site: 'Hickory sandbox' },
    // One transaction per request on the showcase's database: the SQLite file, or PostgreSQL when
    // DATABASE_URL says so (opened and migrated when the app is ready).
    hooks: [showcaseLibrary().hook],
    // The showcase's own plugin (closing the app closes the database and removes the uploads'
    // folder), then the production ones: CORS for the JSON API, security headers, compression, the
    // admin sessions, CSRF, the login's rate limit, /healthz and /readyz, /openapi.json and /docs
    // (see src/production.ts).
    plugins: showcasePlugins(showcaseLibrary(), showcaseUploads()),
    // What the OpenAPI document (`hickory routes --openapi`) says the /admin/ routes require: the
    // session cookie that logging in sets (the check itself reads it, which the route map cannot see).
    openapi: {
      securitySchemes: {
        adminSession: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The signed session cookie that POST /admin/login sets (8 hours without use end it; POST /admin/logout ends it at once).' },
      },
    },
  },
};
