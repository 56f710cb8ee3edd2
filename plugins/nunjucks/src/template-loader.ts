import nunjucks from 'nunjucks';
import type { RendererContext, TemplateFile } from '@hickory/renderer';

type Callback = (error: Error | null, source?: nunjucks.LoaderSource) => void;

/**
 * A nunjucks file loader rooted at `template_path` that keeps every name inside it. Templates are
 * known to nunjucks by their name relative to `template_path`, so `./x.njk` in `pages/a.njk` is
 * `pages/x.njk` and error messages show short names.
 *
 * It reads asynchronously while {@link TemplateLoader.async} is true (nunjucks then passes a
 * callback). The engine turns that off for the length of a synchronous render of a page it has
 * rendered before: nunjucks then asks without a callback, and the rare template not loaded yet (an
 * include in a branch not taken before) is read at once, so a synchronous render never waits.
 *
 * @example
 * ```ts
 * new nunjucks.Environment(new TemplateLoader(context), { autoescape: true });
 * ```
 */
export class TemplateLoader extends nunjucks.FileSystemLoader {
  /** Read by nunjucks on every load: true → `getSource(name, callback)`, false → `getSource(name)`. */
  async = true;
  private readonly context: RendererContext;
  // The number of lines of each template read, for errors at the end of a file.
  private readonly lines = new Map<string, number>();

  constructor(context: RendererContext) {
    super(context.root, { noCache: !context.cache, watch: false });
    this.context = context;
  }

  override resolve(from: string, to: string): string {
    return this.context.resolve(to, this.file(from)).name;
  }

  override getSource(name: string): nunjucks.LoaderSource;
  override getSource(name: string, callback?: Callback): void | nunjucks.LoaderSource {
    if (callback === undefined) {
      const file = this.context.resolve(name);
      return { src: this.counted(file.name, this.context.readNow(file)), path: file.name, noCache: !this.context.cache };
    }
    let file: TemplateFile;
    try {
      file = this.context.resolve(name);
    } catch (error) {
      callback(error as Error);
      return;
    }
    this.context.read(file).then(
      (src) => callback(null, { src: this.counted(file.name, src), path: file.name, noCache: !this.context.cache }),
      (error: Error) => callback(error),
    );
  }

  /**
   * The number of lines of a template this loader read (its last line), if it read it.
   *
   * @example
   * ```ts
   * loader.lineCount('pages/home.njk'); // 42
   * ```
   */
  lineCount(name: string): number | undefined {
    return this.lines.get(name);
  }

  private counted(name: string, src: string): string {
    // Names come from exposures and includes; the bound guards against names built at run time.
    if (this.lines.size < 1000 || this.lines.has(name)) this.lines.set(name, src.split('\n').length - (src.endsWith('\n') ? 1 : 0));
    return src;
  }

  private file(name: string): TemplateFile {
    return this.context.resolve(name);
  }
}
