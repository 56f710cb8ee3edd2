import nunjucks from 'nunjucks';
import type { RendererContext, TemplateFile } from '@hickory/renderer';

type Callback = (error: Error | null, source?: nunjucks.LoaderSource) => void;

/**
 * A nunjucks file loader rooted at `template_path` that reads asynchronously and keeps every
 * name inside it. Templates are known to nunjucks by their name relative to `template_path`, so
 * `./x.njk` in `pages/a.njk` is `pages/x.njk` and error messages show short names.
 *
 * @example
 * ```ts
 * new nunjucks.Environment(new TemplateLoader(context), { autoescape: true });
 * ```
 */
export class TemplateLoader extends nunjucks.FileSystemLoader {
  readonly async = true as const;
  private readonly context: RendererContext;

  constructor(context: RendererContext) {
    super(context.root, { noCache: !context.cache, watch: false });
    this.context = context;
  }

  override resolve(from: string, to: string): string {
    return this.context.resolve(to, this.file(from)).name;
  }

  override getSource(name: string): nunjucks.LoaderSource;
  override getSource(name: string, callback?: Callback): void | nunjucks.LoaderSource {
    let file: TemplateFile;
    try {
      file = this.context.resolve(name);
    } catch (error) {
      callback!(error as Error);
      return;
    }
    this.context.read(file).then(
      (src) => callback!(null, { src, path: file.name, noCache: !this.context.cache }),
      (error: Error) => callback!(error),
    );
  }

  private file(name: string): TemplateFile {
    return this.context.resolve(name);
  }
}
