import { METHODS } from 'node:http';
import { HTTPError, type Request } from '@hickory/core';

/**
 * Every HTTP method Node accepts, upper-case.
 *
 * @example
 * ```ts
 * HTTP_METHODS.has('PATCH'); // true
 * ```
 */
export const HTTP_METHODS: ReadonlySet<string> = new Set(METHODS);

/**
 * The verb REST routing uses for a request, or a refusal of a `_method` override on a GET.
 *
 * @example
 * ```ts
 * const { verb, refused } = await requestVerb(request); // { verb: 'DELETE' }
 * ```
 */
export type RequestVerb = { readonly verb: string; readonly refused?: undefined } | { readonly verb: 'GET'; readonly refused: string };

interface Memo {
  readonly method: string;
  readonly url: string;
  readonly result: RequestVerb;
}

// Read once per request (several nested controllers route one request; `_method` is removed
// from the variables after the first read so it never reaches a handler's `kwargs`).
const memo = new WeakMap<Request, Memo>();

/**
 * The verb REST routing answers: `_method` from the query or a form body stands for the method
 * on a POST (`_method=put` → PUT); a `_method` on a GET or HEAD, or one asking for GET, is
 * refused (405); HEAD is routed as GET (the kernel sends no body). An unknown `_method` → 400.
 * The form body is loaded here when a POST might carry `_method`.
 *
 * @example
 * ```ts
 * await requestVerb(request); // { verb: 'PUT' } for POST /books/1?_method=put
 * ```
 */
export async function requestVerb(request: Request): Promise<RequestVerb> {
  const known = memo.get(request);
  if (known !== undefined && known.method === request.method && known.url === request.url) return known.result;
  const result = await readVerb(request);
  memo.set(request, { method: request.method, url: request.url, result });
  return result;
}

async function readVerb(request: Request): Promise<RequestVerb> {
  const method = request.method.toUpperCase();
  const query = ownValue(request.GET, '_method');
  if (method === 'GET' || method === 'HEAD') {
    return query === undefined ? { verb: 'GET' } : { verb: 'GET', refused: `_method is not accepted on a ${method} request; use POST.` };
  }
  if (method !== 'POST') return { verb: method };
  const value = query ?? (await formValue(request));
  if (value === undefined) return { verb: 'POST' };
  stripOverride(request);
  if (typeof value !== 'string') throw new HTTPError(400, '_method must be given once.');
  const verb = value.toUpperCase();
  if (!HTTP_METHODS.has(verb)) throw new HTTPError(400, `_method names an unknown HTTP method.`);
  if (verb === 'GET' || verb === 'HEAD') return { verb: 'GET', refused: `_method=${value.toLowerCase()} cannot turn a POST into a ${verb}.` };
  return { verb };
}

async function formValue(request: Request): Promise<unknown> {
  const type = request.media_type;
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return undefined;
  await request.load();
  try {
    return ownValue(request.POST, '_method');
  } catch (error) {
    // A multipart body without the multipart plugin: it carries no variables here.
    if (error instanceof HTTPError && error.status === 415) return undefined;
    throw error;
  }
}

function ownValue(variables: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(variables, key) ? variables[key] : undefined;
}

function stripOverride(request: Request): void {
  delete request.GET['_method'];
  try {
    delete request.POST['_method'];
    delete request.params['_method'];
  } catch {
    // The body gives no variables: nothing to strip there.
  }
}
