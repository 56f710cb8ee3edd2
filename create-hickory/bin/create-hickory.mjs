#!/usr/bin/env node
// `npm create hickory@latest my-app` (and `-- --template rest-api`, `-- --explicit`): `hickory create` from
// @hickory/cli, with the same arguments, output and exit code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const hickory = fileURLToPath(import.meta.resolve('@hickory/cli/bin/hickory.mjs'));
const args = process.argv.slice(2);
const child = spawn(process.execPath, [hickory, 'create', ...args], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
