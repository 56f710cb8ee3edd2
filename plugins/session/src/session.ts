// `request.session`, typed wherever this package is imported (the plugin defines it at use()).
declare module '@hickory/core' {
  interface Request {
    /**
     * The request's session (`@hickory/session`): a record of its data, with `regenerate()` and
     * `destroy()`; saved once at the end of the request when changed. Available from routing on.
     *
     * @example
     * ```ts
     * request.session['visits'] = Number(request.session['visits'] ?? 0) + 1;
     * ```
     */
    readonly session: Session;
  }
}

// Set by `Session`'s static block: the one way in to its private marks.
let markOf: (session: Session) => { regenerated: boolean; destroyed: boolean };

/**
 * `request.session`: a record of the request's session data (JSON-serializable values, set and
 * read as properties), with two methods. Changes are saved once, at the end of the request.
 *
 * @example
 * ```ts
 * request.session['user'] = 'ann';
 * request.session.regenerate(); // at login: a new id, the old one destroyed
 * request.session.destroy();    // at logout
 * ```
 */
export class Session {
  [key: string]: unknown;
  // Private fields: neither `JSON.stringify` nor `Object.keys` sees them, only the user's data.
  #regenerated = false;
  #destroyed = false;

  /**
   * Gives the session a new id at the end of the request, keeping its data, and destroys the old
   * one in the store: call it when the user signs in, so that an id an attacker planted before
   * the sign-in (session fixation) is worth nothing after it.
   *
   * @example
   * ```ts
   * request.session.regenerate();
   * request.session['user'] = user.id;
   * ```
   */
  regenerate(): void {
    this.#regenerated = true;
  }

  /**
   * Empties the session and, at the end of the request, deletes it from the store and tells the
   * client to forget its cookie (sign-out). Data set afterwards starts a new session, with a new id.
   *
   * @example
   * ```ts
   * request.session.destroy();
   * ```
   */
  destroy(): void {
    for (const key of Object.keys(this)) delete this[key];
    this.#destroyed = true;
  }

  static {
    markOf = (session) => ({ regenerated: session.#regenerated, destroyed: session.#destroyed });
  }
}

/**
 * Whether `regenerate()` or `destroy()` was called on `session`.
 *
 * @example
 * ```ts
 * if (sessionMarks(session).destroyed) await store.destroy(id);
 * ```
 */
export function sessionMarks(session: Session): { regenerated: boolean; destroyed: boolean } {
  return markOf(session);
}

/**
 * A session record holding the data of a stored session (its JSON text).
 *
 * @example
 * ```ts
 * const session = sessionFrom('{"user":"ann"}'); // session['user'] === 'ann'
 * ```
 */
export function sessionFrom(json: string | undefined): Session {
  const session = new Session();
  if (json === undefined) return session;
  const data = JSON.parse(json) as unknown;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return session;
  // Defined, not assigned: a stored `__proto__` key stays an ordinary property.
  for (const [key, value] of Object.entries(data)) Object.defineProperty(session, key, { value, writable: true, enumerable: true, configurable: true });
  return session;
}
