// Each package's public surface, pinned: a name that appears or disappears in a package's exports
// is a change to what users may import, to be made on purpose. When it is, update
// test/fixtures/export-lists.json in the same change (and the docs that name it).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const PINNED = JSON.parse(readFileSync(new URL('./fixtures/export-lists.json', import.meta.url), 'utf8')) as Record<string, string[]>;

for (const [name, expected] of Object.entries(PINNED)) {
  test(`${name} exports exactly its pinned names`, async () => {
    const actual = Object.keys((await import(name)) as object).sort();
    assert.deepEqual(actual, expected, `${name}'s exports changed: if on purpose, update test/fixtures/export-lists.json`);
  });
}

test('every published @hickory package of the workspace, and each of its subpath entries, has a pinned export list', () => {
  const root = new URL('../', import.meta.url);
  const folders = ['core', 'app', 'cli', ...readdirSync(new URL('plugins/', root)).map((name) => `plugins/${name}`)];
  const published = folders
    .map((folder) => JSON.parse(readFileSync(new URL(`${folder}/package.json`, root), 'utf8')) as { name: string; private?: boolean; exports?: unknown })
    .filter((pkg) => pkg.name.startsWith('@hickory/') && pkg.private !== true)
    // A subpath entry such as `@hickory/dispatch/kit` ("./kit" in `exports`) is a surface of its own.
    .flatMap((pkg) => entriesOf(pkg.exports).map((entry) => (entry === '.' ? pkg.name : `${pkg.name}${entry.slice(1)}`)));
  assert.deepEqual(Object.keys(PINNED).sort(), published.sort());
});

// The module entries of a package's `exports`: those with a `source` condition (a bin script
// such as the CLI's `./bin/hickory.mjs` is no import surface).
function entriesOf(exports: unknown): string[] {
  if (typeof exports !== 'object' || exports === null) return ['.'];
  return Object.entries(exports as Record<string, unknown>)
    .filter(([, target]) => typeof target === 'object' && target !== null && 'source' in target)
    .map(([entry]) => entry);
}
