import type { ResolvedConfig } from './config.ts';
import type { HooksOf } from './hooks.ts';
import { RenderEngines } from './render-engines.ts';

/**
 * The rendering side of the kernel (`Kernel` extends it; not exported from the package): which
 * engine renders a template, rendering through the `render` hook, and the template checks
 * renderer plugins register. What it reads of the kernel (`config`, `isReady`, `closingSignal`)
 * is the kernel's own, declared here abstract so that this file never imports the kernel.
 *
 * @example
 * ```ts
 * class Kernel extends KernelRendering { … } // kernel.render('page.ejs', { title })
 * ```
 */
export abstract class KernelRendering {
  // The render hook's runners are made once the hooks are sealed: from `ready()` on, and once
  // closing began (a kernel closed without booting).
  private readonly engines: RenderEngines;

  constructor(hooks: Pick<HooksOf<unknown>, 'render'>) {
    this.engines = new RenderEngines(
      hooks,
      () => this.config.default_renderer,
      () => this.isReady || this.closingSignal.aborted,
    );
  }

  abstract get config(): ResolvedConfig;
  abstract get isReady(): boolean;
  abstract get closingSignal(): AbortSignal;

  /**
   * Renders a template through the `render` hook: the engine is the `engine:` prefix of the name,
   * else its extension, else `default_renderer`.
   *
   * @example
   * ```ts
   * const html = await kernel.render('books/list.ejs', { books });
   * ```
   */
  render(template: string, namespace: Record<string, unknown>): Promise<string> {
    try {
      const text = this.renderNow(template, namespace);
      return typeof text === 'string' ? Promise.resolve(text) : text;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * {@link Kernel.render} without a promise when the engine renders without waiting (a cached
   * template of a synchronous engine): the text itself, else a promise of it. May throw instead
   * of rejecting. For plugins on the request path, where every promise costs more.
   *
   * @example
   * ```ts
   * const html = kernel.renderNow('page.hbs', { title });
   * response.body = typeof html === 'string' ? html : await html;
   * ```
   */
  renderNow(template: string, namespace: Record<string, unknown>): string | Promise<string> {
    return this.engines.renderNow(template, namespace);
  }

  /**
   * The engine that would render `template` (see {@link Kernel.render}), and whether a plugin
   * renders it; lets routing plugins check templates at `ready()`.
   *
   * @example
   * ```ts
   * kernel.rendererFor('page.njk'); // { engine: 'njk', available: true }
   * ```
   */
  rendererFor(template: string): { engine: string; available: boolean } {
    return this.engines.rendererFor(template);
  }

  /**
   * For renderer plugins: registers, for the engine key `engine`, a check that tells what keeps a
   * template from rendering (`undefined`: nothing known) — so that routing plugins can report at
   * `ready()` a template that would only fail at its first request. Call it from `apply()`; the
   * check runs once the configuration is resolved.
   *
   * @example
   * ```ts
   * kernel.addTemplateCheck('shout', (name) => (existsSync(join(root, name)) ? undefined : `${name} is missing`));
   * ```
   */
  addTemplateCheck(engine: string, check: (template: string) => string | undefined): void {
    this.engines.addCheck(engine, check);
  }

  /**
   * What keeps `template` from rendering, as its renderer's check tells (see
   * {@link Kernel.addTemplateCheck}): routing plugins call it at `ready()` for the templates they expose.
   *
   * @example
   * ```ts
   * kernel.templateProblem('books/list.ejs'); // undefined, or 'Template "books/list.ejs" (engine "ejs") was not found under …'
   * ```
   */
  templateProblem(template: string): string | undefined {
    return this.engines.problemWith(template);
  }

  /**
   * The engine keys some renderer plugin handles (`ejs`, `njk`, `hbs`, …), sorted.
   *
   * @example
   * ```ts
   * createApp().renderEngines(); // ['ejs', 'handlebars', 'hbs', 'njk', 'nunjucks', …]
   * ```
   */
  renderEngines(): string[] {
    return this.engines.inUse();
  }

  /**
   * Throws the configuration error for a `default_renderer` that no renderer plugin handles (the
   * kernel's `ready()`, once the `ready` taps ran).
   *
   * @example
   * ```ts
   * this.checkDefaultRenderer(config.default_renderer);
   * ```
   */
  protected checkDefaultRenderer(engine: string | undefined): void {
    this.engines.checkDefault(engine);
  }
}
