import type { Request } from '@hickory/core';
import { handlerCallOf } from '@hickory/dispatch/kit';
import { hooksError } from './errors.ts';
import { Hook, type HookState } from './hook.ts';

/** What {@link RequestViewerHook} shows about a request by default. */
export const REQUEST_VIEWER_ITEMS = ['path', 'status', 'method', 'controller', 'params', 'hooks', 'time'] as const;

/**
 * One of {@link REQUEST_VIEWER_ITEMS}, or the name of any other attribute of the request
 * (`'url'`, `'remote_addr'`, `'content_type'`), read as Pecan reads `getattr(request, item)`.
 */
// `string & {}` keeps the known names offered by editors while any name is accepted.
export type RequestViewerItem = (typeof REQUEST_VIEWER_ITEMS)[number] | (string & {});

const KNOWN: ReadonlySet<string> = new Set(REQUEST_VIEWER_ITEMS);

/** Options of {@link RequestViewerHook}. */
export interface RequestViewerOptions {
  /** What to show, in this order (default: all of {@link REQUEST_VIEWER_ITEMS}). */
  items?: readonly RequestViewerItem[];
  /** Paths (prefixes) not to report: `['/static/', '/favicon.ico']`. */
  blacklist?: readonly string[];
  /** Where lines go: a function, or an object with `write(line)` (a stream); `false`: nowhere. Default: the kernel's logger (info). */
  writer?: ((line: string) => unknown) | { write(line: string): unknown } | false;
  /** Also (or, with `writer: false`, only) send each item as an `X-Hickory-<Item>` response header. */
  headers?: boolean;
}

/**
 * A development hook, as Pecan's RequestViewerHook: one line per request — path, status,
 * method, the controller method that answered, the request's parameters, the hooks in force and
 * the time taken — to the writer, or as `X-Hickory-*` headers with `headers: true`. It shows
 * parameters as sent (passwords too): keep it out of production.
 *
 * @example
 * ```ts
 * createApp({ root, hooks: [new RequestViewerHook({ blacklist: ['/static/'] })] });
 * // path=/books/1 status=200 method=GET controller=BooksController.get_one params={} hooks=RequestViewerHook time=0.41ms
 * ```
 */
export class RequestViewerHook extends Hook {
  readonly #items: readonly RequestViewerItem[];
  readonly #blacklist: readonly string[];
  readonly #write: ((line: string) => unknown) | undefined;
  readonly #headers: boolean;
  readonly #started = new WeakMap<Request, number>();

  constructor(options: RequestViewerOptions = {}) {
    super();
    const items = options.items ?? REQUEST_VIEWER_ITEMS;
    const refused = Array.isArray(items) ? items.filter((item) => !isAttributeName(item)) : [];
    if (!Array.isArray(items) || refused.length > 0) {
      throw hooksError(
        'HICKORY_ERR_HOOKS_VIEWER_OPTIONS',
        `items must be a list of ${REQUEST_VIEWER_ITEMS.join(', ')} or names of request attributes (no leading _, no Object.prototype member); refused ${Array.isArray(items) ? refused.map((i) => JSON.stringify(i)).join(', ') : JSON.stringify(items)}`,
      );
    }
    const blacklist = options.blacklist ?? [];
    if (!Array.isArray(blacklist) || !blacklist.every((path) => typeof path === 'string')) throw hooksError('HICKORY_ERR_HOOKS_VIEWER_OPTIONS', 'blacklist must be a list of path prefixes');
    const writer = options.writer;
    if (writer !== undefined && writer !== false && typeof writer !== 'function' && typeof (writer as { write?: unknown })?.write !== 'function') {
      throw hooksError('HICKORY_ERR_HOOKS_VIEWER_OPTIONS', 'writer must be a function or have a write(line) method');
    }
    this.#items = items;
    this.#blacklist = blacklist;
    this.#headers = options.headers === true;
    this.#write = writer === false ? undefined : typeof writer === 'function' ? writer : writer === undefined ? undefined : (line) => writer.write(`${line}\n`);
    this.#toLogger = writer === undefined;
  }

  // No writer given: lines go to the kernel's logger (info).
  readonly #toLogger: boolean;

  override on_route(state: HookState): void {
    this.#started.set(state.request, performance.now());
  }

  override after(state: HookState): void {
    const { request } = state;
    const path = request.path;
    if (this.#blacklist.some((prefix) => path.startsWith(prefix))) return;
    const started = this.#started.get(request);
    this.#started.delete(request);
    const values = this.#items.map((item): [RequestViewerItem, string] => [item, this.#value(item, state, started)]);
    const line = values.map(([item, value]) => `${item}=${value}`).join(' ');
    if (this.#toLogger) state.logger.info(line);
    else this.#write?.(line);
    if (this.#headers) for (const [item, value] of values) state.response.headerMap.set(`X-Hickory-${item[0]!.toUpperCase()}${item.slice(1)}`, asciiOnly(value));
  }

  #value(item: RequestViewerItem, state: HookState, started: number | undefined): string {
    const { request } = state;
    if (!KNOWN.has(item)) return attribute(request, item);
    switch (item) {
      case 'path':
        return request.path;
      case 'status':
        return String(state.response.status);
      case 'method':
        return request.method;
      case 'controller': {
        const call = handlerCallOf(request.lookup);
        return call === undefined ? '-' : `${call.controller.constructor.name}.${call.handler.name}`;
      }
      case 'params':
        return JSON.stringify(Object.fromEntries(Object.entries(request.GET).concat(Object.entries(safePost(request))).map(([k, v]) => [k, typeof v === 'string' || Array.isArray(v) ? v : String(v)])));
      case 'hooks':
        return state.hooks.map((hook) => hook.constructor.name).join(',') || '-';
      case 'time':
        return started === undefined ? '-' : `${(performance.now() - started).toFixed(2)}ms`;
    }
    return '-';
  }
}

// A name a viewer item may read: a word, not private (`_`), and no member of every object.
function isAttributeName(item: unknown): item is string {
  return typeof item === 'string' && /^[A-Za-z][A-Za-z0-9_]*$/.test(item) && !(item in Object.prototype);
}

// Any other attribute of the request, as text: '-' when it has none (or reading it throws).
function attribute(request: Request, name: string): string {
  let value: unknown;
  try {
    value = (request as unknown as Record<string, unknown>)[name];
  } catch {
    return '-';
  }
  if (value === undefined || value === null || typeof value === 'function') return '-';
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch {
      return '-';
    }
  }
  return String(value);
}

// The body's variables when they were read; a body that failed to parse shows as none.
function safePost(request: Request): Record<string, unknown> {
  try {
    return request.loaded ? request.POST : {};
  } catch {
    return {};
  }
}

// Header values are printable ASCII: anything else is written as a JSON escape.
function asciiOnly(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
