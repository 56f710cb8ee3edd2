import { definePlugin } from '@hickory/core';
import { stampCookieSigner, tapDirect } from '@hickory/core/kit';
import { checkOptions, type SessionOptions } from './options.ts';
import { defineSessionProperty, SessionManager } from './request-session.ts';
import { hmacSigner } from './signer.ts';

/**
 * Sessions and signed cookies. `request.session` is a record of the session's data, loaded before
 * routing (after static files) when the request carries a validly signed session cookie (else a fresh, empty one),
 * saved once at the end of the request when changed (or due for its rolling expiry), never for a
 * 5xx or a request cut off by `handler_timeout`. The cookie holds only the session's id, signed
 * with HMAC-SHA256; a tampered or unknown cookie gives a fresh session, never an error. The same
 * secrets sign `response.set_cookie(name, value, { signed: true })` and verify
 * `request.signed_cookies`, for every part of the app.
 *
 * @example
 * ```ts
 * createKernel({ root }).use(dispatchPlugin).use(sessionPlugin, { secret: process.env.SESSION_SECRET!, store: sqlStore(db) });
 * ```
 */
export const sessionPlugin = definePlugin<SessionOptions>({
  name: 'session',
  apply(kernel, options) {
    const settings = checkOptions(options);
    const signer = hmacSigner(settings.secrets);
    const sessions = new SessionManager(settings, signer);
    kernel.cookieSigner = signer;
    defineSessionProperty();

    // Before routing, so that a guard (`secure`, a SecureController's check) and `on_route` hooks
    // (tapped at ready(), after every plugin) can read the session; after the plugins used before
    // it that answer before routing (static files, which createApp uses first; health probes and
    // CORS preflights, at negative stages), so that those never touch the store.
    tapDirect(kernel.hooks.beforeRoute, 'session', (request, response) => {
      // Without a current request (use_context_locals: false), the response is told its signer.
      if (!request.use_context_locals) stampCookieSigner(response, signer);
      return sessions.load(request);
    });
    tapDirect(kernel.hooks.beforeSend, 'session', (request, response) => sessions.save(request, response));

    let sweeper: NodeJS.Timeout | undefined;
    kernel.hooks.ready.tapPromise('session', async () => {
      await settings.store.init?.();
      const interval = settings.store.sweepInterval;
      if (interval <= 0) return;
      let sweeping = false;
      sweeper = setInterval(() => {
        if (sweeping) return;
        sweeping = true;
        Promise.resolve()
          .then(() => settings.store.sweep(Date.now()))
          .catch((error: unknown) => kernel.logger.error('session store sweep failed', error))
          .finally(() => (sweeping = false));
      }, interval);
      // The sweep never keeps the process alive.
      sweeper.unref();
    });
    kernel.hooks.close.tap('session', () => clearInterval(sweeper));
  },
});
