import { createHash, randomBytes } from 'node:crypto';
import { Request, type CookieSigner, type Response } from '@hickory/core';
import { isThenable, requestEnded } from '@hickory/core/kit';
import { sessionError } from './errors.ts';
import type { SessionSettings } from './options.ts';
import { type Session, sessionFrom, sessionMarks } from './session.ts';
import type { StoreAnswer, StoredSession } from './store.ts';

/** What the session plugin knows of one request. */
class RequestSession {
  // Made when `request.session` is first read.
  session: Session | undefined = undefined;
  // The id and data of the stored session the cookie named, once verified and found.
  id: string | undefined = undefined;
  stored: StoredSession | undefined = undefined;
  // What the store is to do at the end of the request, decided with the response (see `save`).
  writes: Array<() => StoreAnswer<void>> = [];
  constructor(readonly hadCookie: boolean) {}

  get record(): Session {
    return (this.session ??= sessionFrom(this.stored?.data));
  }
}

const states = new WeakMap<Request, RequestSession>();

/**
 * Gives every `Request` its `session` property (once per process): it reads the state the session
 * plugin of the request's kernel made before routing.
 *
 * @example
 * ```ts
 * defineSessionProperty(); // in apply()
 * ```
 */
export function defineSessionProperty(): void {
  if (Object.getOwnPropertyDescriptor(Request.prototype, 'session') !== undefined) return;
  Object.defineProperty(Request.prototype, 'session', {
    configurable: true,
    get(this: Request): Session {
      const state = states.get(this);
      if (state === undefined) throw sessionError('HICKORY_ERR_SESSION_UNAVAILABLE', `${this.method} ${this.path}`);
      return state.record;
    },
  });
}

/**
 * Loads and saves the sessions of one kernel's requests.
 *
 * @example
 * ```ts
 * const sessions = new SessionManager(settings, hmacSigner(settings.secrets));
 * tapDirect(kernel.hooks.beforeRoute, 'session', (request) => sessions.load(request));
 * ```
 */
export class SessionManager {
  constructor(
    private readonly settings: SessionSettings,
    private readonly signer: CookieSigner,
  ) {}

  /**
   * Finds the request's session (before routing, after static files, which never reach the store). A
   * request without a cookie, or with one whose signature does not verify, or naming no stored
   * session, gets a fresh empty session: the store is read only for a validly signed cookie.
   */
  load(request: Request): StoreAnswer<undefined> {
    // An internal redirect or an error document routes the same request again: keep its session.
    if (states.has(request)) return undefined;
    const cookie = request.cookies[this.settings.name];
    const state = new RequestSession(cookie !== undefined);
    states.set(request, state);
    // Registered now, before a TransactionHook's (in `before`): callbacks run last-registered
    // first, so the store is written after the request's transaction was committed and cleared —
    // never through a connection that transaction still holds (SQLite's one writer).
    request.beforeEnd((outcome) => (outcome.status >= 500 ? undefined : run(state.writes)));
    const id = cookie === undefined ? undefined : this.signer.unsign(this.settings.name, cookie);
    if (id === undefined) return undefined;
    const found = this.settings.store.get(storeKey(id));
    const adopt = (stored: StoredSession | undefined): undefined => {
      if (stored !== undefined) {
        state.id = id;
        state.stored = stored;
      }
      return undefined;
    };
    return isThenable(found) ? found.then(adopt) : adopt(found);
  }

  /**
   * Decides, once the response is final (a `beforeSend` tap: after every `after` hook), what the
   * request's session needs: the cookie goes on the response now, and the store's writes wait for
   * the end of the request, after its transaction (see `load`). Written when the session changed,
   * was regenerated or destroyed, or is due for its rolling expiry; never for a 5xx (a handler that
   * failed half-way) or a request cut off by `handler_timeout`. A write that fails makes the answer
   * a 500 (without the cookie).
   */
  save(request: Request, response: Response): void {
    const state = states.get(request);
    if (state === undefined || response.status >= 500 || requestEnded(request)) return;
    const { store, maxAge } = this.settings;
    const now = Date.now();
    const expires = now + maxAge * 1000;
    const { session, stored, writes } = state;
    let id = state.id;
    // Rolling expiry without a write per request: once a tenth of the lifetime has gone by.
    const due = stored !== undefined && stored.expires - now < maxAge * 900;
    if (session === undefined) {
      if (id === undefined || !due) return;
      const kept = id;
      writes.push(() => store.touch(storeKey(kept), expires));
      this.sendCookie(request, response, kept);
      return;
    }
    const marks = sessionMarks(session);
    const data = JSON.stringify(session);
    const empty = data === '{}';
    if (id !== undefined && (marks.regenerated || marks.destroyed)) {
      const old = id;
      writes.push(() => store.destroy(storeKey(old)));
      id = undefined;
    }
    if (id === undefined) {
      // Destroyed and left empty: no new session, even if regenerate() was called too.
      if (empty && (marks.destroyed || !marks.regenerated)) {
        if (marks.destroyed && state.hadCookie) this.forgetCookie(request, response);
        return;
      }
      const fresh = randomBytes(32).toString('base64url');
      writes.push(() => store.set(storeKey(fresh), data, expires));
      this.sendCookie(request, response, fresh);
      return;
    }
    const current = id;
    if (data !== stored?.data) writes.push(() => store.set(storeKey(current), data, expires));
    else if (due) writes.push(() => store.touch(storeKey(current), expires));
    else return;
    this.sendCookie(request, response, current);
  }

  private sendCookie(request: Request, response: Response, id: string): void {
    const { name, maxAge, path, domain, secure, sameSite, httpOnly } = this.settings;
    response.set_cookie(name, this.signer.sign(name, id), { max_age: maxAge, path, ...(domain === undefined ? {} : { domain }), secure: secure ?? request.scheme === 'https', samesite: sameSite, httponly: httpOnly });
  }

  private forgetCookie(request: Request, response: Response): void {
    const { name, path, domain, secure, sameSite } = this.settings;
    response.delete_cookie(name, { path, ...(domain === undefined ? {} : { domain }), secure: secure ?? request.scheme === 'https', samesite: sameSite });
  }
}

/**
 * The key a session is stored under: the SHA-256 of its id, so that whoever reads the store (a
 * database dump, a backup) holds no id a browser could present.
 *
 * @example
 * ```ts
 * store.get(storeKey(id));
 * ```
 */
export function storeKey(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

// The steps one after the other (the old session's removal before the new one's save).
function run(steps: ReadonlyArray<() => StoreAnswer<void>>, from = 0): StoreAnswer<void> {
  for (let i = from; i < steps.length; i++) {
    const answer = steps[i]!();
    if (isThenable(answer)) return answer.then(() => run(steps, i + 1));
  }
  return undefined;
}
