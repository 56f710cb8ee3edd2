// No package's source imports itself in a circle, not even through type imports: a circle makes
// the order modules load in matter and hides which file owns a concept.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..');
const SOURCE_FOLDERS = ['core/src', 'plugins/dispatch/src', 'plugins/rest/src', 'plugins/hooks/src', 'plugins/multipart/src', 'plugins/static/src', 'plugins/cors/src', 'plugins/security-headers/src', 'plugins/renderer/src', 'app/src', 'cli/src', 'sandbox/src'];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Each file's relative imports (values and types, `import` and `export … from`), as paths. */
function importGraph(folder: string): Map<string, string[]> {
  const files = sourceFiles(join(root, folder));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map((match) => resolve(dirname(file), match[1]!));
    graph.set(file, targets.filter((target) => files.includes(target)));
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('the circle finder finds a circle of type imports', () => {
  const graph = new Map([
    ['/a.ts', ['/b.ts']],
    ['/b.ts', ['/c.ts']],
    ['/c.ts', ['/a.ts']],
    ['/d.ts', ['/a.ts']],
  ]);
  assert.deepEqual(circles(graph), [['/a.ts', '/b.ts', '/c.ts'].map((file) => relative(root, file)).sort()]);
});

for (const folder of SOURCE_FOLDERS) {
  test(`${folder} has no import circle`, () => {
    const graph = importGraph(folder);
    assert.ok(graph.size > 0, `${folder} has source files`);
    assert.deepEqual(circles(graph), []);
  });
}
