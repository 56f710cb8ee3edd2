// A third-party renderer written from scratch in a few lines, passing the same conformance
// suite as the first-party engines: {{name}} (escaped), {{{name}}} (raw), {{> file}} (include),
// {{#each list}}…{{.}}…{{/each}} (loop), {{call fn}} and a first line {{!layout file}}.
import { escapeHtml } from '@hickory/core';
import { defineRenderer, type RendererContext, type TemplateFile } from '@hickory/renderer';
import { runRendererConformance } from '@hickory/renderer/conformance';

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'var' | 'raw' | 'call' | 'include'; name: string; line: number }
  | { kind: 'each'; name: string; body: Node[]; line: number };

interface Compiled {
  layout: string | undefined;
  nodes: Node[];
}

const TAG = /\{\{\{\s*([\w.]+)\s*\}\}\}|\{\{\s*([^}]*?)\s*\}\}/g;

function fail(message: string, line: number): never {
  throw Object.assign(new Error(message), { line });
}

function compile(source: string): Compiled {
  const layoutMatch = /^\{\{!layout\s+(\S+)\s*\}\}\n?/.exec(source);
  const text = layoutMatch ? source.slice(layoutMatch[0].length) : source;
  const offset = layoutMatch ? 1 : 0;
  const root: Node[] = [];
  const stack: Array<{ body: Node[]; line: number }> = [{ body: root, line: 0 }];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const line = offset + text.slice(0, match.index).split('\n').length;
    const body = stack.at(-1)!.body;
    body.push({ kind: 'text', text: text.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      body.push({ kind: 'raw', name: match[1], line });
      continue;
    }
    const [word, arg] = match[2]!.split(/\s+/, 2) as [string, string | undefined];
    if (word === '#each' && arg) {
      const node: Node = { kind: 'each', name: arg, body: [], line };
      body.push(node);
      stack.push({ body: node.body, line });
    } else if (word === '/each' && stack.length > 1) stack.pop();
    else if (word === '>' && arg) body.push({ kind: 'include', name: arg, line });
    else if (word === 'call' && arg) body.push({ kind: 'call', name: arg, line });
    else if (/^[\w.]+$/.test(word) && !arg) body.push({ kind: 'var', name: word, line });
    else fail(`unknown tag {{${match[2]}}}`, line);
  }
  if (stack.length > 1) fail('{{#each}} is not closed', stack.at(-1)!.line);
  stack[0]!.body.push({ kind: 'text', text: text.slice(last) });
  return { layout: layoutMatch?.[1], nodes: root };
}

function lookup(data: Record<string, unknown>, item: unknown, name: string): unknown {
  if (name === '.') return item;
  return Object.hasOwn(data, name) ? data[name] : undefined;
}

function createTinyEngine(ctx: RendererContext) {
  const load = ctx.store((source) => compile(source));
  async function renderNodes(nodes: Node[], data: Record<string, unknown>, item: unknown): Promise<string> {
    let out = '';
    for (const node of nodes) {
      if (node.kind === 'text') out += node.text;
      else if (node.kind === 'var') out += escapeHtml(String(lookup(data, item, node.name) ?? ''));
      else if (node.kind === 'raw') out += String(lookup(data, item, node.name) ?? '');
      else if (node.kind === 'include') out += await renderFile(ctx.resolve(node.name), data);
      else if (node.kind === 'call') {
        try {
          out += escapeHtml(String((lookup(data, item, node.name) as () => unknown)()));
        } catch (error) {
          fail((error as Error).message, node.line);
        }
      } else if (node.kind === 'each') {
        const list = lookup(data, item, node.name);
        for (const each of Array.isArray(list) ? list : []) out += await renderNodes(node.body, data, each);
      }
    }
    return out;
  }
  async function renderFile(file: TemplateFile, data: Record<string, unknown>): Promise<string> {
    const { layout, nodes } = await load(file);
    const body = await renderNodes(nodes, data, undefined);
    if (layout === undefined) return body;
    return renderFile(ctx.resolve(layout), Object.assign(Object.create(null), data, { body }));
  }
  return {
    render: renderFile,
    locate: (error: unknown) => ({ line: (error as { line?: number }).line }),
  };
}

/** The tiny engine as a plugin, exactly as a third party would publish it. */
const tinyRenderer = defineRenderer({ name: 'tiny', extensions: ['tiny'], create: createTinyEngine });

runRendererConformance({
  plugin: tinyRenderer,
  engine: 'tiny',
  extension: 'tiny',
  fixtures: {
    files: {
      'layout.tiny': '<!DOCTYPE html>\n<html>\n<head><title>{{title}}</title></head>\n<body>\n{{> nav.tiny}}\n<main>{{{body}}}</main>\n</body>\n</html>\n',
      'nav.tiny': '<nav>Home</nav>\n',
      'page.tiny': '{{!layout layout.tiny}}\n<h1>{{title}}</h1>\n<ul>\n{{#each books}}  <li>{{.}}</li>\n{{/each}}</ul>\n<p>{{user}}</p>\n',
      'hello.tiny': 'Hello {{name}}!\n',
      'echo.tiny': '{{site}}|{{name}}|{{delimiter}}|{{filename}}|{{root}}',
      'broken.tiny': 'one\ntwo\n{{% nonsense }}\n',
      'throwing.tiny': 'one\n\n{{call boom}}\n',
    },
    page: 'page.tiny',
    hello: 'hello.tiny',
    helloEdited: 'Bye {{name}}!\n',
    echo: 'echo.tiny',
    broken: { template: 'broken.tiny', line: 3 },
    throwing: { template: 'throwing.tiny', line: 3 },
  },
});
