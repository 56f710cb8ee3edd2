import type { IncomingHttpHeaders } from 'node:http';
import { coreError } from './errors.ts';

/** A header value as stored: one string, or several for headers such as `Set-Cookie`. */
export type HeaderValue = string | string[];

/**
 * A case-insensitive header mapping, read and written by index:
 * `headers['Content-Type'] = 'text/csv'` and `headers['content-type']` name the same header.
 * Iterating it, `Object.keys()` and `Object.entries()` give the names as they were first written.
 *
 * @example
 * ```ts
 * response.headers['Content-Disposition'] = 'attachment; filename="a.csv"';
 * delete response.headers['X-Powered-By'];
 * ```
 */
export type Headers = Record<string, HeaderValue | undefined> & Iterable<[string, HeaderValue]>;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 field values, limited to ASCII: printable characters, spaces and tabs. CR and LF would
// split the header; the other controls, DEL and non-ASCII text are refused alike (one rule), since
// bytes beyond ASCII are read differently by clients and proxies.
const UNSAFE_VALUE = /[^\t\x20-\x7e]/;
// Header names already checked: the same few names are set on every response.
const knownNames = new Set<string>();
const KNOWN_NAMES_MAX = 512;

/**
 * Throws a coded error unless `name` is an HTTP token and `value` is printable ASCII, spaces and
 * tabs only, so that a header can never be split (or read two ways) by what a controller writes
 * into it.
 *
 * @example
 * ```ts
 * assertHeaderValue('Location', '/next'); // ok
 * ```
 */
export function assertHeaderValue(name: string, value: unknown): void {
  if (!knownNames.has(name)) {
    if (!TOKEN.test(name)) throw coreError('HICKORY_ERR_HEADER_VALUE', name);
    if (knownNames.size < KNOWN_NAMES_MAX) knownNames.add(name);
  }
  if (Array.isArray(value)) {
    for (const v of value) assertHeaderValue(name, v);
    return;
  }
  if (typeof value === 'number') return;
  if (typeof value !== 'string' || UNSAFE_VALUE.test(value)) throw coreError('HICKORY_ERR_HEADER_VALUE', name);
}

// Most names the code asks for are written in lower case already ('content-type'): a scan for an
// upper-case letter costs less than `toLowerCase()`, a builtin call that copies nothing but still
// walks the string (callgrind, Node 26: ~1k instructions a request went to it).
function lowerCase(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 65 && code <= 90) return name.toLowerCase();
  }
  return name;
}

/**
 * The store behind a response's headers: lower-cased keys next to a flat name/value list, so that
 * the kernel can set and write headers without a proxy (and hand the list to `writeHead` as it
 * is), while users get the {@link Headers} view.
 *
 * @example
 * ```ts
 * const map = new HeaderMap();
 * map.set('Content-Type', 'text/plain');
 * map.get('content-type'); // 'text/plain'
 * ```
 */
export class HeaderMap {
  // Parallel arrays, in the order first written: lower-cased keys, and `[name, value, …]` pairs
  // that `writeHead` takes as they are (no object built per response).
  private keys: string[] = [];
  private pairs: Array<string | HeaderValue> = [];
  private view: Headers | undefined;
  // Set once the response is decided without this map (see `seal`): told of each change ignored.
  private refused: (() => void) | undefined;

  /**
   * Freezes the map: from now on every change is ignored and `refused` is called instead. The
   * kernel seals the response of a request it answered without it (a 503 past `handler_timeout`),
   * so that a handler still running changes nothing that is sent.
   *
   * @example
   * ```ts
   * map.seal(() => logger.warn('a late change to the response was ignored'));
   * ```
   */
  seal(refused: () => void): void {
    this.refused = refused;
  }

  /**
   * True once {@link seal} was called (whoever sealed the map is told of the change refused): the
   * response's own fields ask it before they change.
   *
   * @example
   * ```ts
   * if (response.headerMap.refusesChange()) return;
   * ```
   */
  refusesChange(): boolean {
    if (this.refused === undefined) return false;
    this.refused();
    return true;
  }

  /** Sets (or, with `undefined`/`null`, removes) a header, validating name and value. */
  set(name: string, value: HeaderValue | number | undefined | null): void {
    if (this.refused !== undefined) return this.refused();
    if (value === undefined || value === null) {
      this.delete(name);
      return;
    }
    assertHeaderValue(name, value);
    const stored = typeof value === 'number' ? String(value) : Array.isArray(value) ? value.map(String) : value;
    this.put(lowerCase(name), name, stored);
  }

  /**
   * Sets a header whose name and value the caller made itself and knows to be valid (a
   * `Content-Length` it counted, a `Content-Type` it checked once): no validation, no case
   * folding. `key` is `name` in lower case. Everything from a controller goes through {@link set}.
   *
   * @example
   * ```ts
   * map.setKnown('content-length', 'Content-Length', String(body.length));
   * ```
   */
  setKnown(key: string, name: string, value: string): void {
    if (this.refused !== undefined) return this.refused();
    this.put(key, name, value);
  }

  private put(key: string, name: string, value: HeaderValue): void {
    const at = this.keyIndex(key);
    if (at !== -1) {
      this.pairs[2 * at + 1] = value;
      return;
    }
    this.keys.push(key);
    this.pairs.push(name, value);
  }

  /** Adds a value to a header, keeping the ones already there (for `Set-Cookie`, `Vary`, …). */
  append(name: string, value: string): void {
    const current = this.get(name);
    if (current === undefined) this.set(name, value);
    else this.set(name, Array.isArray(current) ? [...current, value] : [current, value]);
  }

  get(name: string): HeaderValue | undefined {
    const at = this.keyIndex(lowerCase(name));
    return at === -1 ? undefined : (this.pairs[2 * at + 1] as HeaderValue);
  }

  has(name: string): boolean {
    return this.keyIndex(lowerCase(name)) !== -1;
  }

  /**
   * {@link has} for a name the caller writes in lower case itself (`'content-type'`): no case
   * folding, which for a header that is not there means no scan of the name (the kernel asks for
   * a few such names on every response).
   *
   * @example
   * ```ts
   * if (!map.hasKey('content-type')) map.setKnown('content-type', 'Content-Type', 'text/html; charset=utf-8');
   * ```
   */
  hasKey(key: string): boolean {
    return this.keyIndex(key) !== -1;
  }

  delete(name: string): boolean {
    if (this.refused !== undefined) {
      this.refused();
      return false;
    }
    const at = this.keyIndex(lowerCase(name));
    if (at === -1) return false;
    this.keys.splice(at, 1);
    this.pairs.splice(2 * at, 2);
    return true;
  }

  /** Removes every header. */
  clear(): void {
    if (this.refused !== undefined) return this.refused();
    this.keys = [];
    this.pairs = [];
  }

  /** The headers as `[name, value]` pairs, names as first written. */
  *[Symbol.iterator](): IterableIterator<[string, HeaderValue]> {
    const pairs = this.pairs.slice();
    for (let i = 0; i < pairs.length; i += 2) yield [pairs[i] as string, pairs[i + 1] as HeaderValue];
  }

  /** The headers as a plain object for `writeHead`, names as first written. */
  toObject(): Record<string, HeaderValue> {
    const out: Record<string, HeaderValue> = Object.create(null);
    const pairs = this.pairs;
    for (let i = 0; i < pairs.length; i += 2) out[pairs[i] as string] = pairs[i + 1] as HeaderValue;
    return out;
  }

  /**
   * The headers as one flat `[name, value, name, value, …]` list, names as first written: the
   * form `res.writeHead(status, list)` accepts. It is the map's own storage: read it, do not keep
   * or change it.
   *
   * @example
   * ```ts
   * res.writeHead(200, response.headerMap.toFlatArray());
   * ```
   */
  toFlatArray(): ReadonlyArray<string | HeaderValue> {
    return this.pairs;
  }

  // Where `key` is among the keys, or -1. A loop rather than `Array.prototype.indexOf`: a response
  // holds a handful of headers, and the call into the builtin costs more than comparing them all
  // (callgrind, Node 26: ~95 instructions a look-up, the kernel making about seven a response).
  private keyIndex(key: string): number {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) return i;
    return -1;
  }

  /** The index-assignable, case-insensitive {@link Headers} view of this map (made once). */
  asRecord(): Headers {
    return (this.view ??= makeView(this));
  }
}

function makeView(map: HeaderMap): Headers {
  return new Proxy(Object.create(null) as Headers, {
    get(_target, prop) {
      if (prop === Symbol.iterator) return () => map[Symbol.iterator]();
      return typeof prop === 'string' ? map.get(prop) : undefined;
    },
    set(_target, prop, value) {
      if (typeof prop !== 'string') return false;
      map.set(prop, value);
      return true;
    },
    has(_target, prop) {
      return typeof prop === 'string' && map.has(prop);
    },
    deleteProperty(_target, prop) {
      if (typeof prop === 'string') map.delete(prop);
      return true;
    },
    ownKeys() {
      return Array.from(map, ([name]) => name);
    },
    getOwnPropertyDescriptor(_target, prop) {
      if (typeof prop !== 'string' || !map.has(prop)) return undefined;
      return { value: map.get(prop), writable: true, enumerable: true, configurable: true };
    },
    defineProperty(_target, prop, descriptor) {
      if (typeof prop !== 'string' || !('value' in descriptor)) return false;
      map.set(prop, descriptor.value);
      return true;
    },
    setPrototypeOf() {
      return false;
    },
  });
}

/**
 * A read-only, case-insensitive view of incoming headers (Node gives them lower-cased).
 * The copy has a null prototype, so `headers.constructor` is `undefined`, never a function.
 *
 * @example
 * ```ts
 * const headers = requestHeaders(req.headers);
 * headers['Content-Type']; // same as headers['content-type']
 * ```
 */
export function requestHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const own: Record<string, HeaderValue> = Object.create(null);
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    if (value !== undefined) own[key] = value;
  }
  return new Proxy(own as Headers, {
    get(target, prop) {
      if (prop === Symbol.iterator) return () => Object.entries(target)[Symbol.iterator]();
      return typeof prop === 'string' ? target[prop.toLowerCase()] : undefined;
    },
    has(target, prop) {
      return typeof prop === 'string' && prop.toLowerCase() in target;
    },
    set() {
      return false;
    },
    deleteProperty() {
      return false;
    },
    defineProperty() {
      return false;
    },
    setPrototypeOf() {
      return false;
    },
  });
}

// How the body is framed on the connection: Node's parser has read them, the body reader trusts them.
const FRAMING = new Set(['content-length', 'transfer-encoding']);

/**
 * Rewrites (or, with `undefined`, removes) one incoming header in Node's header object, as WebOb
 * code rewrites `environ`: the name must be a token and the value printable ASCII (no CR or LF),
 * and the framing headers (`Content-Length`, `Transfer-Encoding`) are refused. Returns the
 * lower-cased name.
 *
 * @example
 * ```ts
 * rewriteRequestHeader(raw.headers, 'Accept', 'application/json'); // 'accept'
 * ```
 */
export function rewriteRequestHeader(headers: IncomingHttpHeaders, name: string, value: string | undefined): string {
  assertHeaderValue(name, value === undefined ? '' : value);
  const key = name.toLowerCase();
  if (FRAMING.has(key)) throw coreError('HICKORY_ERR_REQUEST_HEADER_FRAMING', name);
  if (value === undefined) delete headers[key];
  else headers[key] = value;
  return key;
}
