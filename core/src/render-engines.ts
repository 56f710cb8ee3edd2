import { bailRunner, isThenable, type BailRunner } from './bail-runner.ts';
import { coreError } from './errors.ts';
import type { HooksOf, RenderJob } from './hooks.ts';
import { hookMapEntries } from './tapable-internals.ts';

/**
 * The kernel's side of rendering: which engine a template name selects (an `engine:` prefix, else
 * its extension, else `default_renderer`) and the `render` hook's runner for each engine, made
 * once the hooks are sealed so that a synchronous engine answers without a promise.
 *
 * @example
 * ```ts
 * const engines = new RenderEngines(kernel.hooks, () => config.default_renderer, () => sealed);
 * engines.renderNow('page.hbs', { title }); // the text, or a promise of it
 * ```
 */
export class RenderEngines {
  // Per engine key, the `render` hook's runner once the hooks are sealed.
  private readonly runners = new Map<string, BailRunner>();
  // Per engine key, what its renderer says keeps a template from rendering (see `problemWith`).
  private readonly checks = new Map<string, (template: string) => string | undefined>();

  constructor(
    private readonly hooks: Pick<HooksOf<unknown>, 'render'>,
    private readonly defaultRenderer: () => string | undefined,
    private readonly sealed: () => boolean,
  ) {}

  /**
   * Renders through the `render` hook: the text itself when the engine did not wait, else a
   * promise of it. May throw instead of rejecting.
   *
   * @example
   * ```ts
   * const html = engines.renderNow('books/list.ejs', { books });
   * ```
   */
  renderNow(template: string, namespace: Record<string, unknown>): string | Promise<string> {
    const job = this.job(template, namespace);
    let run = this.runners.get(job.engine);
    if (run === undefined) {
      const hook = this.hooks.render.get(job.engine);
      if (!hook || !hook.isUsed()) throw coreError('HICKORY_ERR_NO_RENDERER', template, job.engine);
      // Taps may still come until the hooks are sealed: until then, through the hook itself.
      if (!this.sealed()) return checked(hook.promise(job), template, job.engine);
      run = bailRunner(hook) as BailRunner;
      this.runners.set(job.engine, run);
    }
    const text = run(job, undefined);
    if (typeof text === 'string') return text;
    if (isThenable(text)) return checked(text, template, job.engine);
    throw coreError('HICKORY_ERR_NO_RENDERER', template, job.engine);
  }

  /**
   * The engine `template` selects, and whether a plugin renders it.
   *
   * @example
   * ```ts
   * engines.rendererFor('page.njk'); // { engine: 'njk', available: true }
   * ```
   */
  rendererFor(template: string): { engine: string; available: boolean } {
    const { engine } = this.job(template, {});
    return { engine, available: Boolean(this.hooks.render.get(engine)?.isUsed()) };
  }

  /**
   * Lets the renderer of `engine` (a key of the `render` hook) tell what keeps a template from
   * rendering; the last one registered for a key wins.
   *
   * @example
   * ```ts
   * engines.addCheck('ejs', (name) => (existsSync(join(root, name)) ? undefined : `${name} was not found`));
   * ```
   */
  addCheck(engine: string, check: (template: string) => string | undefined): void {
    this.checks.set(engine, check);
  }

  /**
   * What keeps `template` from rendering, as its engine's check says (a missing file, an engine
   * package that is not installed), or `undefined` when nothing is known to.
   *
   * @example
   * ```ts
   * engines.problemWith('books/list.ejs'); // 'Template "books/list.ejs" (engine "ejs") was not found under …'
   * ```
   */
  problemWith(template: string): string | undefined {
    const job = this.job(template, {});
    return this.checks.get(job.engine)?.(job.template);
  }

  /**
   * The engine keys some renderer plugin handles, sorted.
   *
   * @example
   * ```ts
   * engines.inUse(); // ['ejs', 'njk', 'nunjucks']
   * ```
   */
  inUse(): string[] {
    return [...hookMapEntries(this.hooks.render)].filter(([, hook]) => hook.isUsed()).map(([key]) => String(key)).sort();
  }

  /**
   * Throws the configuration error for a `default_renderer` that no renderer plugin handles.
   *
   * @example
   * ```ts
   * engines.checkDefault(config.default_renderer); // at ready()
   * ```
   */
  checkDefault(engine: string | undefined): void {
    if (engine === undefined || this.hooks.render.get(engine)?.isUsed()) return;
    const inUse = this.inUse();
    throw coreError(
      'HICKORY_ERR_CONFIG_VALUE',
      'default_renderer',
      `names engine "${engine}", but no renderer plugin handles it (${inUse.length ? `engines in use: ${inUse.join(', ')}` : 'no renderer plugin is in use'}): add the engine's plugin with kernel.use(), or fix the name`,
    );
  }

  private job(template: string, namespace: Record<string, unknown>): RenderJob {
    const colon = template.indexOf(':');
    if (colon > 0 && !template.slice(0, colon).includes('/')) {
      return { engine: template.slice(0, colon), template: template.slice(colon + 1), namespace };
    }
    const slash = template.lastIndexOf('/');
    const dot = template.lastIndexOf('.');
    const ext = dot > slash && dot > 0 ? template.slice(dot + 1) : '';
    const known = ext && this.hooks.render.get(ext)?.isUsed();
    const engine = known ? ext : (this.defaultRenderer() ?? ext);
    return { engine, template, namespace };
  }
}

function checked(pending: PromiseLike<unknown>, template: string, engine: string): Promise<string> {
  return Promise.resolve(pending).then((text) => {
    if (typeof text !== 'string') throw coreError('HICKORY_ERR_NO_RENDERER', template, engine);
    return text;
  });
}
