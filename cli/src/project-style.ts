/**
 * How the handlers of a generated project reach the request: through the importable `request` and
 * `response` (the default), or, with `hickory create --explicit`, as their first two arguments
 * (`use_context_locals: false`). Templates write each handler once and ask the style for the parts
 * that differ.
 *
 * @example
 * ```ts
 * const style = handlerStyle(true);
 * style.imports(['expose', 'response']); // "import { expose, type Request, type Response } from '@hickory/app';"
 * style.params("name = 'world'");         // "_request: Request, _response: Response, name = 'world'"
 * ```
 */
export interface HandlerStyle {
  /** The comment a controller file starts with, after its imports: empty in the default style. */
  readonly note: string;
  /**
   * The import line from `@hickory/app`. List `request`/`response` where the default style
   * imports them: the explicit style drops them and imports their types instead.
   */
  imports(names: readonly string[]): string;
  /**
   * A handler's parameter list: its own `declared` parameters, after the request and the response
   * in the explicit style. `uses` names those of the two the handler reads (the others get a `_`).
   */
  params(declared?: string, uses?: ReadonlyArray<'request' | 'response'>): string;
}

const CONTEXT_LOCALS = new Set(['request', 'response']);

// Why an explicit handler takes two more parameters than the URL fills.
const EXPLICIT_NOTE = `
// use_context_locals: false (config.ts): every handler receives the request and the response
// first, then its own arguments, mapped by name from the path, the query and the body.
`;

/**
 * The {@link HandlerStyle} of a new project.
 *
 * @example
 * ```ts
 * handlerStyle(false).params('id: string'); // 'id: string'
 * handlerStyle(true).params('id: string', ['response']); // '_request: Request, response: Response, id: string'
 * ```
 */
export function handlerStyle(explicit: boolean): HandlerStyle {
  return {
    note: explicit ? EXPLICIT_NOTE : '',
    imports(names) {
      const listed = explicit ? [...names.filter((n) => !CONTEXT_LOCALS.has(n)), 'type Request', 'type Response'] : names;
      return `import { ${listed.join(', ')} } from '@hickory/app';`;
    },
    params(declared = '', uses = []) {
      if (!explicit) return declared;
      const pair = [`${uses.includes('request') ? '' : '_'}request: Request`, `${uses.includes('response') ? '' : '_'}response: Response`];
      return [...pair, ...(declared ? [declared] : [])].join(', ');
    },
  };
}
