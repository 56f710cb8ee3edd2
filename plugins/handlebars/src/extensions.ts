/**
 * The extensions the handlebars renderer reads (templates and partials). Apart from the engine,
 * so that the plugin can name them without loading handlebars.
 *
 * @example
 * ```ts
 * await findPartials(context, HANDLEBARS_EXTENSIONS); // partials/nav.hbs, partials/footer.handlebars…
 * ```
 */
export const HANDLEBARS_EXTENSIONS: readonly string[] = Object.freeze(['hbs', 'handlebars']);
