import { HTTPError, type Request, type Response } from '@hickory/core';
import { preferredType, varyOn } from '@hickory/core/kit';
import type { Rendering } from './exposure.ts';

/**
 * Picks the rendering for a request. With a path extension (`/books.json`) the rendering of
 * that media type, or `undefined` when the method offers none (the caller answers 404). Without
 * one, the `Accept` header decides among the renderings by quality (see {@link preferredType}:
 * ties go to the outermost `@expose`, parameters other than `q` are ignored); no `Accept` or `*\/*`
 * gives the outermost; nothing acceptable → 406. A method with several renderings reached without
 * an extension answers by `Accept`, so its response says `Vary: Accept` (the 406 too), whatever the
 * client sent: a shared cache must not give one client's representation to another.
 *
 * @example
 * ```ts
 * negotiate(renderingsOf(fn), 'application/json', request, response); // the json rendering, or undefined
 * ```
 */
export function negotiate(renderings: readonly Rendering[], extensionType: string | undefined, request: Request, response: Response): Rendering | undefined {
  if (extensionType !== undefined) {
    for (const rendering of renderings) if (rendering.mediaType === extensionType) return rendering;
    return undefined;
  }
  const first = renderings[0]!;
  // Set on the exchange's response now: an error of this request (its 406 included) is written there too.
  if (renderings.length > 1) varyOn(response, 'Accept');
  const accept = request.raw.headers.accept;
  if (accept === undefined || accept === '' || accept === '*/*') return first;
  const chosen = chooseType(renderings, accept);
  if (chosen === false) {
    const offered = [...new Set(renderings.map((r) => r.mediaType))].join(', ');
    throw new HTTPError(406, `This resource is available as ${offered}.`);
  }
  for (const rendering of renderings) if (rendering.mediaType === chosen) return rendering;
  return first;
}

// The choice depends only on the Accept value and the offered types, and clients repeat the same
// few Accept values: remember them per list of renderings (a bounded number of values each).
const choices = new WeakMap<readonly Rendering[], Map<string, string | false>>();
const MAX_REMEMBERED = 64;

function chooseType(renderings: readonly Rendering[], accept: string): string | false {
  let remembered = choices.get(renderings);
  const known = remembered?.get(accept);
  if (known !== undefined) return known;
  const chosen = preferredType(accept, renderings.map((r) => r.mediaType));
  if (remembered === undefined) choices.set(renderings, (remembered = new Map()));
  if (remembered.size < MAX_REMEMBERED) remembered.set(accept, chosen);
  return chosen;
}
