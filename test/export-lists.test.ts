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

test('every published @hickory package of the workspace has a pinned export list', () => {
  const root = new URL('../', import.meta.url);
  const folders = ['core', 'app', 'cli', ...readdirSync(new URL('plugins/', root)).map((name) => `plugins/${name}`)];
  const published = folders
    .map((folder) => JSON.parse(readFileSync(new URL(`${folder}/package.json`, root), 'utf8')) as { name: string; private?: boolean })
    .filter((pkg) => pkg.name.startsWith('@hickory/') && pkg.private !== true)
    .map((pkg) => pkg.name);
  assert.deepEqual(Object.keys(PINNED).sort(), published.sort());
});
