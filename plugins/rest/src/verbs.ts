import { METHODS } from 'node:http';
import { HTTPError, type Request } from '@hickory/core';
import { peekRoutingState, routingSlot, routingState, type Awaitable } from '@hickory/dispatch/kit';

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

// Read once per request, in its routing state (several nested controllers route one request, and
// a form body is read once). With the method and URL it was read for: an internal redirect reads
// it again.
const VERB = routingSlot<Memo>('rest.verb');

const GET_VERB: RequestVerb = Object.freeze({ verb: 'GET' });
const POST_VERB: RequestVerb = Object.freeze({ verb: 'POST' });
// One frozen answer per known method, so a request with no `_method` allocates nothing.
const PLAIN_VERBS: ReadonlyMap<string, RequestVerb> = new Map([...HTTP_METHODS].map((m) => [m, Object.freeze({ verb: m })]));

/**
 * The verb REST routing answers: `_method` from the query or a form body stands for the method
 * on a POST (`_method=put` → PUT); a `_method` on a GET or HEAD, or one asking for GET, is
 * refused (405); HEAD is routed as GET (the kernel sends no body). A `_method` that names no
 * HTTP method is a verb no resource answers (405, or the resource's `_default`, as Pecan); a
 * repeated one → 400. `_method` stays in the variables (a handler's `kwargs` sees it, as in
 * Pecan). At once, unless a POST's form body must be loaded to find a `_method` (then a promise).
 *
 * @example
 * ```ts
 * await requestVerb(request); // { verb: 'PUT' } for POST /books/1?_method=put
 * ```
 */
export function requestVerb(request: Request): Awaitable<RequestVerb> {
  const method = request.method;
  // GET, HEAD and the other verbs never strip anything, so they need no memo.
  if (method === 'GET' || method === 'HEAD') return request.query_string === '' ? GET_VERB : getVerb(ownValue(request.GET, '_method'), method);
  const upper = method === 'POST' ? method : method.toUpperCase();
  if (upper !== 'POST') return upper === 'GET' || upper === 'HEAD' ? getVerb(ownValue(request.GET, '_method'), upper) : (PLAIN_VERBS.get(upper) ?? { verb: upper });
  const known = peekRoutingState(request)?.get(VERB);
  if (known !== undefined && known.method === request.method && known.url === request.url) return known.result;
  const query = request.query_string === '' ? undefined : ownValue(request.GET, '_method');
  if (query !== undefined) return remember(request, postOverride(query));
  if (!mayCarryForm(request.media_type)) return remember(request, POST_VERB);
  return formValue(request).then((value) => remember(request, value === undefined ? POST_VERB : postOverride(value)));
}

function remember(request: Request, result: RequestVerb): RequestVerb {
  routingState(request).set(VERB, { method: request.method, url: request.url, result });
  return result;
}

// GET or HEAD (`method`) with a query string: a `_method` there (`given`) is refused.
function getVerb(given: unknown, method: string): RequestVerb {
  if (given === undefined) return GET_VERB;
  return { verb: 'GET', refused: `_method is not accepted on a ${method} request; use POST.` };
}

function postOverride(value: unknown): RequestVerb {
  if (typeof value !== 'string') throw new HTTPError(400, '_method must be given once.');
  const verb = value.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') return { verb: 'GET', refused: `_method=${value.toLowerCase()} cannot turn a POST into a ${verb}.` };
  return PLAIN_VERBS.get(verb) ?? { verb };
}

/**
 * Whether a body of this media type (a form) may carry `_method`: then a POST's verb is known
 * only once the body is read, and {@link requestVerb} answers with a promise.
 *
 * @example
 * ```ts
 * mayCarryForm(request.media_type); // true for application/x-www-form-urlencoded
 * ```
 */
export function mayCarryForm(type: string): boolean {
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
}

async function formValue(request: Request): Promise<unknown> {
  if (!mayCarryForm(request.media_type)) return undefined;
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
