// The servers as users run them: compiled JavaScript importing the packages' `dist/` (their
// `default` export condition), not the TypeScript sources under tsx. `tsc -b benchmarks` builds
// every package the servers import with the package's own tsconfig (what `npm run build` runs in
// each package) and compiles the server files beside them, into benchmarks/dist/.
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('./', import.meta.url));
// benchmarks/tsconfig.json compiles from the repository root (rootDir ".."), so the servers land in dist/benchmarks/servers/.
const BUILT_DIR = fileURLToPath(new URL('../dist/benchmarks/servers/', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

/**
 * The path of a file of `servers/` (`child`, `app`, …): its TypeScript source, or its compiled
 * JavaScript under benchmarks/dist when `built`.
 *
 * @example
 * ```ts
 * serverFile('child', true); // '/…/benchmarks/dist/benchmarks/servers/child.js'
 * ```
 */
export function serverFile(name: string, built: boolean): string {
  return built ? `${BUILT_DIR}${name}.js` : `${HERE}${name}.ts`;
}

/**
 * Builds the packages' `dist/` and the compiled servers (`tsc -b benchmarks`, incremental: quick
 * when nothing changed), and copies the page route's template beside them (tsc copies no
 * templates). Throws with tsc's exit code when the build fails (tsc prints why).
 *
 * @example
 * ```ts
 * buildServers();
 * const server = await startServer('hickory', { built: true });
 * ```
 */
export function buildServers(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', TSCONFIG], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tsc -b benchmarks failed (exit ${result.status ?? result.signal}): the servers could not be built from the packages' dist`);
  cpSync(`${HERE}templates`, `${BUILT_DIR}templates`, { recursive: true });
}
