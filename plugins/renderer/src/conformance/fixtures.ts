/**
 * The templates an engine brings to the conformance suite, in its own syntax. Every name is
 * relative to the suite's `template_path`; `files` holds every file the templates need.
 */
export interface ConformanceFixtures {
  /** Every template file: name relative to `template_path` → text. */
  readonly files: Readonly<Record<string, string>>;
  /**
   * A page that uses a layout (or inheritance), an include (or partial), a loop over `books`
   * and prints `user` escaped. Rendered with {@link PAGE_NAMESPACE} it must give
   * {@link PAGE_HTML} (whitespace next to tags is ignored).
   */
  readonly page: string;
  /** Prints `Hello <name>!`, `name` escaped. */
  readonly hello: string;
  /** A new text for the `hello` file that prints `Bye <name>!` (for the cache checks). */
  readonly helloEdited: string;
  /** Prints `site|name|delimiter|filename|root` (each escaped), joined by `|`. */
  readonly echo: string;
  /** A template that fails (syntax or runtime) at `line`. */
  readonly broken: { readonly template: string; readonly line: number };
  /**
   * A template that calls the namespace's `boom` function, which throws `Error('kaboom')`;
   * `line` is the line of the call when the engine reports lines for runtime errors.
   */
  readonly throwing: { readonly template: string; readonly line?: number };
  /**
   * Templates that do not compile, each with the line of its mistake and the words the error
   * must say (the engine's own, told once): one mistake inside the text, one left open to the end.
   */
  readonly syntax?: ReadonlyArray<{ readonly template: string; readonly line: number; readonly says: string }>;
}

/**
 * The namespace the page is rendered with.
 *
 * @example
 * ```ts
 * await kernel.render(fixtures.page, PAGE_NAMESPACE);
 * ```
 */
export const PAGE_NAMESPACE = Object.freeze({
  title: 'Books',
  books: Object.freeze(['Dune', 'Emma']),
  user: '<script>alert(1)</script>',
});

/**
 * What the page must render to (after {@link normalizeHtml}).
 *
 * @example
 * ```ts
 * assert.equal(normalizeHtml(html), PAGE_HTML);
 * ```
 */
export const PAGE_HTML =
  '<!DOCTYPE html><html><head><title>Books</title></head><body><nav>Home</nav><main><h1>Books</h1>' +
  '<ul><li>Dune</li><li>Emma</li></ul><p>&lt;script&gt;alert(1)&lt;/script&gt;</p></main></body></html>';

/**
 * Keys that engines have read as options when they were mixed into data. In a namespace they
 * must be plain data with no effect on rendering.
 *
 * @example
 * ```ts
 * await kernel.render('hello.ejs', { ...OPTION_LIKE_KEYS, name: 'Ada' });
 * ```
 */
export const OPTION_LIKE_KEYS: Readonly<Record<string, unknown>> = Object.freeze({
  settings: { views: ['/'], 'view options': { delimiter: '?', client: true, escape: 'x' }, 'view cache': true },
  delimiter: '?',
  openDelimiter: '[',
  closeDelimiter: ']',
  outputFunctionName: 'x;throw new Error("injected")',
  filename: '/etc/passwd',
  client: true,
  escape: 'not a function',
  escapeFunction: 'not a function',
  localsName: 'not an identifier',
  destructuredLocals: ['x;throw 1'],
  root: '/',
  views: ['/'],
  cache: false,
  async: false,
  strict: true,
  compileDebug: false,
  debug: true,
  rmWhitespace: true,
  context: { hijacked: true },
  autoescape: false,
  noEscape: true,
  allowProtoPropertiesByDefault: true,
  allowProtoMethodsByDefault: true,
  partials: { x: 'y' },
  helpers: { x: 'y' },
  layout: 'nowhere',
  template_path: '/',
});

/**
 * Collapses the whitespace next to tags and trims, so that templates may be indented freely.
 *
 * @example
 * ```ts
 * normalizeHtml('<ul>\n  <li>a</li>\n</ul>\n'); // '<ul><li>a</li></ul>'
 * ```
 */
export function normalizeHtml(html: string): string {
  return html.replace(/\s*(<[^>]*>)\s*/g, '$1').trim();
}
