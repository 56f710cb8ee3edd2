import ejs from 'ejs';
import { templateFailed, TemplateError, type RendererContext, type RendererEngine, type TemplateFile } from '@hickory/renderer';
import { syntaxErrorAt } from './ejs-syntax.ts';

type AsyncTemplate = (data: Record<string, unknown>) => Promise<string>;

/**
 * Names the compiled ejs function uses inside its `with (locals)` block. A namespace key with
 * one of these names would replace the function's own helper (escaping, output, includes,
 * line tracking), so such keys are left out of the data; `include` is the renderer's own.
 */
export const EJS_RESERVED_NAMES: readonly string[] = Object.freeze([
  'include', 'escapeFn', 'rethrow', 'locals', '__append', '__output', '__line', '__lines', '__filename',
]);

const RESERVED = new Set(EJS_RESERVED_NAMES);

// Every option is written out so that nothing comes from ejs' mutable globals or from data.
function compileOptions(file: TemplateFile): ejs.Options & { async: true } {
  return {
    async: true,
    filename: file.name,
    cache: false,
    compileDebug: true,
    debug: false,
    strict: false,
    _with: true,
    localsName: 'locals',
    delimiter: '%',
    openDelimiter: '<',
    closeDelimiter: '>',
    escape: ejs.escapeXML,
    rmWhitespace: false,
    context: undefined,
    outputFunctionName: undefined,
    destructuredLocals: undefined,
    root: undefined,
    views: undefined,
    includer: undefined,
    client: false,
  } as ejs.Options & { async: true };
}

// ejs' rethrow() prefixes the message with "<filename>:<line>\n<excerpt>\n\n".
const LOCATION = /^([^\n]*):(\d+)\n[\s\S]*?\n\n/;

/**
 * Starts the ejs engine: templates compile with `async: true` (so includes are
 * `await include('nav.ejs', { extra })`), autoescaping on and every option explicit.
 * `include` names are relative to the including template, or to `template_path` with a
 * leading `/`; a name without an extension gets `.ejs`.
 *
 * @example
 * ```ts
 * const engine = createEjsEngine(context);
 * await engine.render(context.resolve('page.ejs'), { title: 'Books' });
 * ```
 */
export function createEjsEngine(context: RendererContext): RendererEngine {
  const load = context.storeNow((source, file) => compile(source, file, context.engine));
  // Include names resolved once per including template: resolving is path work on every render.
  const includes = new Map<string, TemplateFile>();
  const resolveInclude = (name: string, file: TemplateFile): TemplateFile => {
    const key = `${file.path}\0${name}`;
    let child = includes.get(key);
    if (child === undefined) {
      child = context.resolve(includeName(name), name.startsWith('/') ? undefined : { name: file.name, path: file.path });
      // Names are written in templates, so this stays small; the bound guards against computed ones.
      if (includes.size < 1000) includes.set(key, child);
    }
    return child;
  };

  // Templates are async functions, so this returns their promise, with no further layer around it
  // once the template is compiled (each layer costs more under the request context).
  function render(file: TemplateFile, data: Record<string, unknown>): Promise<string> {
    const fn = load(file);
    return fn instanceof Promise ? fn.then((loaded) => run(loaded, file, data)) : run(fn, file, data);
  }

  function run(fn: AsyncTemplate, file: TemplateFile, data: Record<string, unknown>): Promise<string> {
    const locals: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(data)) if (!RESERVED.has(key)) locals[key] = data[key];
    locals.include = (name: string, extra?: Record<string, unknown>) => {
      const child = resolveInclude(name, file);
      const childData: Record<string, unknown> = Object.assign(Object.create(null), data);
      if (typeof extra === 'object' && extra !== null) for (const key of Object.keys(extra)) if (key !== '__proto__') childData[key] = extra[key];
      return render(child, childData);
    };
    let text: Promise<string>;
    try {
      text = fn(locals);
    } catch (error) {
      text = Promise.reject(error);
    }
    return text.then(undefined, (error: unknown) => failed(error, file, context.engine));
  }

  return { render };
}

// A template that does not compile is reported once, with its line: ejs' own error adds nothing
// but its message (the stack is ejs' compiler), and a hint to a linter.
function compile(source: string, file: TemplateFile, engine: string): AsyncTemplate {
  const options = compileOptions(file);
  try {
    return ejs.compile(source, options) as unknown as AsyncTemplate;
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    const first = message.split('\n')[0]!.replace(` in ${file.name} while compiling ejs`, '').trim();
    const place = syntaxErrorAt(source, options);
    // Past the template's end, JavaScript names the code ejs wraps it in (`catch`): say what it means.
    const detail = !(error instanceof SyntaxError) ? first : place?.atEnd ? 'SyntaxError: the template ends inside a JavaScript block (a `<% … { %>` without its `<% } %>`)' : `SyntaxError: ${first}`;
    throw templateFailed({ template: file.name, engine, line: place?.line }, undefined, detail);
  }
}

// Named here, where the failing template is known: enclosing templates only add context.
function failed(error: unknown, file: TemplateFile, engine: string): never {
  if (error instanceof TemplateError) throw error;
  throw templateFailed({ template: file.name, engine, line: lineOf(error) }, error);
}

function lineOf(error: unknown): number | undefined {
  const match = LOCATION.exec((error as Error)?.message ?? '');
  return match ? Number(match[2]) : undefined;
}

// Relative include names are made explicit (`nav` → `./nav.ejs`) so that they resolve
// against the including template's folder.
function includeName(name: string): string {
  const withExt = /\.[^/]+$/.test(name) ? name : `${name}.ejs`;
  if (withExt.startsWith('/') || withExt.startsWith('./') || withExt.startsWith('../')) return withExt;
  return `./${withExt}`;
}
