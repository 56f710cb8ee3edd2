#!/usr/bin/env node
// The `hickory` command. In a source checkout it runs the TypeScript sources under tsx,
// re-executing Node with the flags that needs; an installed package runs its build (dist/).
// tsx is named by its resolved URL, not by name: `--import tsx` would resolve from the user's
// working directory, where tsx is usually not installed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

// Installed packages ship src/ too (for the `source` export condition), so a checkout is told
// apart by not living under node_modules.
const installed = fileURLToPath(import.meta.url).split(/[\\/]/).includes('node_modules');
if (installed || !existsSync(source)) {
  await import(built);
} else {
  const tsx = import.meta.resolve('tsx');
  const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, source, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
