import { coreError } from './errors.ts';

/**
 * What signs `response.set_cookie(name, value, { signed: true })` and verifies
 * `request.signed_cookies`. The kernel holds one slot for it (`kernel.cookieSigner`), which a
 * plugin fills in its `apply()` (`@hickory/session`'s `sessionPlugin` does, with its secrets):
 * the kernel itself knows no key and no algorithm.
 *
 * @example
 * ```ts
 * const signer: CookieSigner = {
 *   sign: (name, value) => `${value}.${mac(name, value)}`,
 *   unsign: (name, signed) => { const dot = signed.lastIndexOf('.'); return dot > 0 && signed.slice(dot + 1) === mac(name, signed.slice(0, dot)) ? signed.slice(0, dot) : undefined; },
 * };
 * ```
 */
export interface CookieSigner {
  /** The value to send for cookie `name`: `value` and its signature. */
  sign(name: string, value: string): string;
  /** The value a signed cookie carries, or `undefined` when its signature does not verify. */
  unsign(name: string, signed: string): string | undefined;
}

// How a response finds its kernel's signer: installed by the kernel's module, which can see the
// current request (this module cannot import `current.ts`: that would be an import circle).
let findSigner: (response: object) => CookieSigner | undefined = () => undefined;
// Responses told their signer directly (apps with use_context_locals: false have no current request).
// Keyed by `object`, not `Response`: response.ts imports this module, and no import circle is allowed.
const stamped = new WeakMap<object, CookieSigner>();

/**
 * Installs how a response finds the signer of the request it answers (the kernel does, once).
 *
 * @example
 * ```ts
 * findSignersWith(() => currentExchange()?.request.cookieSigner);
 * ```
 */
export function findSignersWith(find: (response: object) => CookieSigner | undefined): void {
  findSigner = find;
}

/**
 * Tells `response` which signer its `set_cookie(…, { signed: true })` uses: for plugins, where no
 * current request says it (an app with `use_context_locals: false`).
 *
 * @example
 * ```ts
 * if (!request.use_context_locals) stampCookieSigner(response, signer);
 * ```
 */
export function stampCookieSigner(response: object, signer: CookieSigner): void {
  stamped.set(response, signer);
}

/**
 * The signer for a signed cookie set on `response`; `HICKORY_ERR_COOKIE_SIGNER` when there is none.
 *
 * @example
 * ```ts
 * const value = signerFor(this, name).sign(name, 'v');
 * ```
 */
export function signerFor(response: object, name: string): CookieSigner {
  const signer = stamped.get(response) ?? findSigner(response);
  if (signer === undefined) throw coreError('HICKORY_ERR_COOKIE_SIGNER', JSON.stringify(name));
  return signer;
}

/**
 * The cookies whose signature verifies, unsigned; a tampered or unsigned cookie is absent.
 *
 * @example
 * ```ts
 * verifiedCookies({ cart: '7.sig' }, signer); // { cart: '7' }
 * ```
 */
export function verifiedCookies(cookies: Record<string, string>, signer: CookieSigner): Record<string, string> {
  const verified: Record<string, string> = Object.create(null);
  for (const name of Object.keys(cookies)) {
    const value = signer.unsign(name, cookies[name]!);
    if (value !== undefined) verified[name] = value;
  }
  return verified;
}
