import { parse } from 'acorn';
import ejs from 'ejs';

/** Where a template's JavaScript stops parsing (see {@link syntaxErrorAt}). */
export interface SyntaxErrorPlace {
  /** The template's 1-based line. */
  readonly line: number;
  /** The code ran to the end of the template unfinished (a `<% if (x) { %>` never closed). */
  readonly atEnd: boolean;
}

/**
 * Where the syntax error ejs met while compiling `text` is in the template, which ejs itself does
 * not say (it compiles the whole template into one function, and JavaScript's SyntaxError has no
 * position). The template's generated source marks each template line (`__line = 3`); acorn
 * finds where that source fails to parse, and the last mark before it is the line. An unclosed
 * `<%` is on the line of the last opening tag. `undefined` when the text parses after all.
 *
 * @example
 * ```ts
 * syntaxErrorAt('<h1>ok</h1>\n<%= x +* %>\n', options); // { line: 2, atEnd: false }
 * ```
 */
export function syntaxErrorAt(text: string, options: ejs.Options): SyntaxErrorPlace | undefined {
  let source: string;
  try {
    // generateSource() and source are ejs' own, left out of its types.
    const template = new ejs.Template(text, { ...options, compileDebug: true }) as unknown as { generateSource(): void; source: string };
    template.generateSource();
    source = template.source;
  } catch {
    // ejs could not even split the template into tags: an opening tag without its close.
    const open = text.lastIndexOf(`${options.openDelimiter ?? '<'}${options.delimiter ?? '%'}`);
    return open === -1 ? undefined : { line: lineAt(text, open), atEnd: false };
  }
  const end = `\n})`;
  const wrapped = `(async function () {\n${source}${end}`;
  let position: number;
  try {
    parse(wrapped, { ecmaVersion: 'latest', sourceType: 'script' });
    return undefined;
  } catch (error) {
    position = (error as { pos?: number }).pos ?? wrapped.length;
  }
  let line = 1;
  for (const match of wrapped.slice(0, position).matchAll(/__line = (\d+)/g)) line = Number(match[1]);
  const lines = lineAt(text, text.length) - (text.endsWith('\n') ? 1 : 0);
  return { line: Math.min(line, Math.max(lines, 1)), atEnd: position >= wrapped.length - end.length };
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
