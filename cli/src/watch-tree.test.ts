import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { isIgnoredName, reloadFilter } from './reload-filter.ts';
import { watchTree } from './watch-tree.ts';

async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(20)) if (check()) return true;
  return check();
}

test('isIgnoredName skips dependencies, build output, hidden and editor files', () => {
  for (const name of ['node_modules', 'dist', '.git', '.root.ts.swp', 'root.ts~']) assert.equal(isIgnoredName(name), true, name);
  for (const name of ['root.ts', 'templates', 'config.json']) assert.equal(isIgnoredName(name), false, name);
});

test('reloadFilter follows source files and templates, never a database or what the app writes', () => {
  const filter = reloadFilter();
  for (const file of ['config.ts', 'src/root.mts', 'lib/a.js', 'b.mjs', 'c.cjs', 'package.json', 'templates/page.ejs', 'views/list.njk', 'views/x.nunjucks', 'views/y.hbs', 'views/z.handlebars']) {
    assert.equal(filter.restartsFor(file), true, file);
  }
  for (const file of ['data/books.sqlite', 'data/books.sqlite-wal', 'data/books.sqlite-shm', 'data/books.sqlite-journal', 'app.db', 'uploads/a.png', 'server.log', 'public/style.css', 'README.md', 'Makefile', 'node_modules/x/index.js', '.cache/a.json', 'src/.root.ts.swp', 'src/root.ts~']) {
    assert.equal(filter.restartsFor(file), false, file);
  }
  for (const folder of ['node_modules', 'dist', '.git', 'src/.cache']) assert.equal(filter.skipsFolder(folder), true, folder);
  for (const folder of ['src', 'data', 'templates']) assert.equal(filter.skipsFolder(folder), false, folder);
});

test('reloadFilter: --watch adds files (hidden folders included), --ignore wins over everything', () => {
  const filter = reloadFilter({ watch: ['*.yaml', '.config/*.toml', 'src/generated/**'], ignore: ['src/generated/**', 'scratch', 'tmp/**'] });
  assert.equal(filter.restartsFor('routes.yaml'), true);
  assert.equal(filter.restartsFor('sub/routes.yaml'), false, 'a glob without ** stays in its folder');
  assert.equal(filter.restartsFor('.config/app.toml'), true);
  assert.equal(filter.skipsFolder('.config'), false, 'a --watch glob reaches into a hidden folder');
  assert.equal(filter.skipsFolder('.git'), true);
  assert.equal(filter.restartsFor('src/generated/client.ts'), false, '--ignore wins over --watch');
  assert.equal(filter.skipsFolder('scratch'), true);
  assert.equal(filter.skipsFolder('tmp'), true);
  assert.equal(filter.restartsFor('tmp/x.ts'), false);
  assert.equal(filter.restartsFor('src/root.ts'), true, 'the defaults still apply');
});

test('watchTree reports source changes in subfolders and new folders, not databases nor ignored folders', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hickory-watch-'));
  await mkdir(join(dir, 'controllers'));
  await mkdir(join(dir, 'node_modules'));
  await mkdir(join(dir, 'data'));
  const seen: string[] = [];
  const watcher = watchTree(dir, (file) => seen.push(file));
  try {
    await writeFile(join(dir, 'node_modules', 'x.js'), '');
    await writeFile(join(dir, 'data', 'books.sqlite'), 'x');
    await writeFile(join(dir, 'data', 'books.sqlite-wal'), 'x');
    await writeFile(join(dir, 'controllers', 'root.ts'), 'export {};');
    assert.ok(await until(() => seen.includes(join(dir, 'controllers', 'root.ts'))), seen.join());
    await mkdir(join(dir, 'views'));
    await writeFile(join(dir, 'views', 'page.ejs'), 'hi');
    assert.ok(await until(() => seen.includes(join(dir, 'views', 'page.ejs'))), seen.join());
    await mkdir(join(dir, 'uploads'));
    await writeFile(join(dir, 'uploads', 'a.png'), 'x');
    await writeFile(join(dir, 'controllers', 'other.ts'), 'export {};');
    assert.ok(await until(() => seen.includes(join(dir, 'controllers', 'other.ts'))), seen.join());
    assert.deepEqual(seen.filter((file) => !file.endsWith('.ts') && !file.endsWith('.ejs')), [], 'only source files');
  } finally {
    watcher.close();
    await rm(dir, { recursive: true, force: true });
  }
});
