import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CookieSigner } from '@hickory/core';

// A base64url SHA-256 MAC: 32 bytes, 43 characters.
const MAC_LENGTH = 43;

function mac(secret: string, name: string, value: string): string {
  // The cookie's name is signed with its value: a value signed for one cookie is refused in another.
  return createHmac('sha256', secret).update(name).update('=').update(value).digest('base64url');
}

/**
 * A cookie signer on HMAC-SHA256 (`node:crypto`): a signed value is `value.mac`, where `mac` covers
 * the cookie's name and value. The first secret signs, every secret verifies (key rotation: put the
 * new secret first, drop the old one once the cookies it signed have expired). Verification compares
 * in constant time. Written here rather than taken from `cookie-signature` because that package
 * signs the value alone (a value could move between cookies) and knows one secret only.
 *
 * @example
 * ```ts
 * const signer = hmacSigner(['new secret …', 'old secret …']);
 * signer.unsign('cart', signer.sign('cart', '7')); // '7'
 * ```
 */
export function hmacSigner(secrets: readonly string[]): CookieSigner {
  const [first] = secrets;
  if (first === undefined) throw new RangeError('hmacSigner needs at least one secret');
  return {
    sign: (name, value) => `${value}.${mac(first, name, value)}`,
    unsign(name, signed) {
      const dot = signed.lastIndexOf('.');
      if (dot === -1 || signed.length - dot - 1 !== MAC_LENGTH) return undefined;
      const value = signed.slice(0, dot);
      const given = Buffer.from(signed.slice(dot + 1), 'latin1');
      let valid = false;
      // Every secret is tried, so that the time taken does not say which one verified.
      for (const secret of secrets) if (timingSafeEqual(given, Buffer.from(mac(secret, name, value), 'latin1'))) valid = true;
      return valid ? value : undefined;
    },
  };
}
