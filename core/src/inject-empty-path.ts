import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InjectOptions } from 'light-my-request';

/**
 * What `kernel.inject()` takes. light-my-request 6.6 (the last whose dependencies run on Node 20
 * without require(esm)) types `method` as the seven common verbs; its run-time check takes every
 * method Node knows (CHECKOUT, TRACE, PROPFIND…), which routing serves, so the type does too.
 *
 * @example
 * ```ts
 * const options: InjectRequest = { method: 'PROPFIND', url: '/files/' };
 * ```
 */
export type InjectRequest = Omit<InjectOptions, 'method'> & { method?: string };

/**
 * For `inject({ url: '' })` (or `'?a=1'`): a path no socket can carry (a request line always has
 * one). As Pecan answers an empty path, the root's index without its slash: a redirect to `/`
 * (the query kept), 302 for GET and HEAD, 308 otherwise (the body is not read). `undefined` for
 * any other URL.
 *
 * @example
 * ```ts
 * const toRoot = emptyPathRedirect(options);
 * if (toRoot !== undefined) return lightInject(toRoot.answer, toRoot.options);
 * ```
 */
export function emptyPathRedirect(options: InjectOptions | string): { answer: (req: IncomingMessage, res: ServerResponse) => void; options: InjectOptions } | undefined {
  const given = typeof options === 'string' ? { url: options } : options;
  const url = given.url;
  if (typeof url !== 'string' || (url !== '' && !url.startsWith('?'))) return undefined;
  const method = (given.method ?? 'GET').toUpperCase();
  const answer = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(method === 'GET' || method === 'HEAD' ? 302 : 308, { Location: `/${url}`, 'Content-Length': '0' });
    res.end();
  };
  return { answer, options: { ...given, url: '/' } };
}
