// Each package's public surface, pinned: a name that appears or disappears in one of a package's
// entries (its main entry, a plugin authors' kit, …) is a change to what users may import, to be
// made on purpose. When it is, update test/fixtures/export-lists.json in the same change (and the
// docs that name it).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const PINNED = JSON.parse(readFileSync(new URL('./fixtures/export-lists.json', import.meta.url), 'utf8')) as Record<string, string[]>;

for (const [specifier, expected] of Object.entries(PINNED)) {
  test(`${specifier} exports exactly its pinned names`, async () => {
    const actual = Object.keys((await import(specifier)) as object).sort();
    assert.deepEqual(actual, expected, `${specifier}'s exports changed: if on purpose, update test/fixtures/export-lists.json`);
  });
}

test('every module entry of every published @hickory package has a pinned export list', () => {
  const root = new URL('../', import.meta.url);
  const folders = ['core', 'app', 'cli', ...readdirSync(new URL('plugins/', root)).map((name) => `plugins/${name}`)];
  const entries = folders
    .map((folder) => JSON.parse(readFileSync(new URL(`${folder}/package.json`, root), 'utf8')) as { name: string; private?: boolean; exports: Record<string, unknown> })
    .filter((pkg) => pkg.name.startsWith('@hickory/') && pkg.private !== true)
    // `./kit`, `./conformance`: module entries; `./bin/hickory.mjs` is a file exported as such, not a surface.
    .flatMap((pkg) => Object.keys(pkg.exports).filter((key) => !/\.[cm]?js$/.test(key)).map((key) => pkg.name + key.slice(1)));
  assert.deepEqual(Object.keys(PINNED).sort(), entries.sort());
});

// The module entries of a package's `exports`: those with a `source` condition (a bin script
// such as the CLI's `./bin/hickory.mjs` is no import surface).
function entriesOf(exports: unknown): string[] {
  if (typeof exports !== 'object' || exports === null) return ['.'];
  return Object.entries(exports as Record<string, unknown>)
    .filter(([, target]) => typeof target === 'object' && target !== null && 'source' in target)
    .map(([entry]) => entry);
}
