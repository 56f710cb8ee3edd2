// A name that holds a credential, by the words such names are made of (`Authorization`,
// `X-Api-Key`, `X-Session-Id`, `?access_token=`, `?password=`): a list of exact names always
// misses someone's own header, so any name containing one of these is treated as secret.
const CREDENTIAL_WORDS = /token|secret|key|auth|session|password|cookie/i;

/** What a masked value is shown as: its length only. */
const MASK = '•••';

/**
 * True when a header or parameter name looks like it carries a credential: it contains `token`,
 * `secret`, `key`, `auth`, `session`, `password` or `cookie`, in any case.
 *
 * @example
 * ```ts
 * isCredentialName('X-Session-Id'); // true
 * isCredentialName('accept');       // false
 * ```
 */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_WORDS.test(name);
}

/**
 * A header value as the debug page shows it: masked (with its length) when its name is a
 * credential's.
 *
 * @example
 * ```ts
 * maskedValue('cookie', 'sid=1'); // '••• (masked, 5 characters)'
 * ```
 */
export function maskedValue(name: string, value: string): string {
  return isCredentialName(name) ? `${MASK} (masked, ${value.length} characters)` : value;
}

/**
 * A request target with the values of its credential-like query parameters masked
 * (`/reset?token=abc&page=2` → `/reset?token=•••&page=2`); the names, the path and the other
 * values stay as sent. A name whose escapes do not decode is judged by its raw text.
 *
 * @example
 * ```ts
 * maskedUrl('/login?user=ada&pass%77ord=x'); // '/login?user=ada&pass%77ord=•••'
 * ```
 */
export function maskedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const pairs = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    return eq !== -1 && isCredentialName(decodedName(name)) ? `${name}=${MASK}` : pair;
  });
  return `${url.slice(0, q + 1)}${pairs.join('&')}`;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
