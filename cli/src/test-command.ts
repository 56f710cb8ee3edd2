import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { cliError } from './errors.ts';
import { isIgnoredName } from './reload-filter.ts';

// What Node's runner would pick in a folder if it knew TypeScript: `*.test.<ext>`.
const TEST_FILE = /\.test\.(ts|mts|cts|js|mjs|cjs)$/;

/**
 * The test files `hickory test` runs: each file given, and every `*.test.{ts,mts,cts,js,mjs,cjs}`
 * under each folder given, at any depth (node_modules and hidden folders aside), relative to `cwd`
 * and sorted. Written here rather than left to `node --test "test/**"`, which expands globs only from
 * Node 21 and never finds `.ts` files by itself. A path that does not exist is a usage error.
 *
 * @example
 * ```ts
 * findTestFiles(['test']); // ['test/app.test.ts', 'test/books/books.test.ts']
 * ```
 */
export function findTestFiles(paths: readonly string[], cwd = process.cwd()): string[] {
  const found: string[] = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    let folder: boolean;
    try {
      folder = statSync(full).isDirectory();
    } catch {
      throw cliError('HICKORY_ERR_CLI_USAGE', `hickory test: no file or folder "${path}" (node's own options take their value after "=": --test-name-pattern=books)`);
    }
    if (folder) collect(full, found);
    else found.push(full);
  }
  return [...new Set(found)].map((file) => relative(cwd, file)).sort();
}

function collect(dir: string, found: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (isIgnoredName(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) collect(path, found);
    else if (TEST_FILE.test(entry.name)) found.push(path);
  }
}

/**
 * `hickory test [paths…] [node options…]` (what a new project's `npm test` runs): runs every test
 * file under `paths` (default `test/`) with Node's test runner and TypeScript through tsx, passing
 * the options that start with `-` to Node (`--test-name-pattern=books`, `--test-only`), and
 * resolves to the runner's exit code. No test file at all is an error, not a silent pass.
 *
 * @example
 * ```ts
 * process.exitCode = await runTests(['test'], ['--test-reporter=spec']);
 * ```
 */
export function runTests(paths: readonly string[], nodeOptions: readonly string[] = []): Promise<number> {
  const folders = paths.length ? paths : ['test'];
  const files = findTestFiles(folders);
  if (files.length === 0) {
    return Promise.reject(cliError('HICKORY_ERR_CLI_USAGE', `hickory test: no *.test.ts (or .mts, .js, .mjs) file under ${folders.join(', ')}`));
  }
  // A runner of its own even when started from a test (Node's runner marks its children with
  // NODE_TEST_CONTEXT, which would make this one report to a parent and always exit 0).
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawn(process.execPath, [...withTsx(process.execArgv), '--test', ...nodeOptions, ...files], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

// In a checkout this process already runs under tsx (bin/hickory.mjs adds it, with the `source`
// condition); an installed command runs its build and names tsx by its own resolved URL, since
// `--import tsx` would resolve from the project, which may not depend on tsx.
function withTsx(execArgv: readonly string[]): string[] {
  return execArgv.some((arg) => /[\\/]tsx[\\/]|^tsx$/.test(arg)) ? [...execArgv] : [...execArgv, '--import', import.meta.resolve('tsx')];
}
