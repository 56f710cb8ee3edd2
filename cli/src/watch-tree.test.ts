import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { isIgnoredName, watchTree } from './watch-tree.ts';

async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(20)) if (check()) return true;
  return check();
}

test('isIgnoredName skips dependencies, build output, hidden and editor files', () => {
  for (const name of ['node_modules', 'dist', '.git', '.root.ts.swp', 'root.ts~']) assert.equal(isIgnoredName(name), true, name);
  for (const name of ['root.ts', 'templates', 'config.json']) assert.equal(isIgnoredName(name), false, name);
});

test('watchTree reports changes in subfolders, new folders included, and not in ignored ones', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-watch-'));
  await mkdir(join(dir, 'controllers'));
  await mkdir(join(dir, 'node_modules'));
  const seen: string[] = [];
  const watcher = watchTree(dir, (file) => seen.push(file));
  try {
    await writeFile(join(dir, 'node_modules', 'x.js'), '');
    await writeFile(join(dir, 'controllers', 'root.ts'), 'export {};');
    assert.ok(await until(() => seen.includes(join(dir, 'controllers', 'root.ts'))), seen.join());
    await mkdir(join(dir, 'views'));
    assert.ok(await until(() => seen.includes(join(dir, 'views'))), seen.join());
    await writeFile(join(dir, 'views', 'page.ejs'), 'hi');
    assert.ok(await until(() => seen.includes(join(dir, 'views', 'page.ejs'))), seen.join());
    assert.ok(!seen.some((file) => file.includes('node_modules')), seen.join());
  } finally {
    watcher.close();
    await rm(dir, { recursive: true, force: true });
  }
});
