import type { Rendering } from './exposure.ts';

const JSON_RENDERING: Rendering = Object.freeze({ template: 'json', contentType: 'application/json', mediaType: 'application/json' });
const mapped = new WeakMap<readonly Rendering[], readonly Rendering[]>();

/**
 * The renderings of a handler under `default_renderer: 'json'` (as Pecan): a plain `@expose()`
 * (no template, no `content_type`) renders JSON; the others are kept. Made once per list.
 *
 * @example
 * ```ts
 * jsonByDefault(renderingsOf(Root.prototype.data)); // [{ template: 'json', … }]
 * ```
 */
export function jsonByDefault(renderings: readonly Rendering[]): readonly Rendering[] {
  let known = mapped.get(renderings);
  if (known === undefined) {
    known = renderings.some((r) => r.implicit === true) ? renderings.map((r) => (r.implicit === true ? JSON_RENDERING : r)) : renderings;
    mapped.set(renderings, known);
  }
  return known;
}
