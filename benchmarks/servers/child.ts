// The child process that serves one framework: it prints one JSON line
// `{ "port": …, "skipped": { … }, "core": … }` on stdout and stops when its stdin closes. `core` is
// the file `@hickory/core` resolves to here, so that a run can tell the packages' dist from their sources.
//
//   node --conditions=source --import tsx benchmarks/servers/child.ts <framework>
//   node benchmarks/dist/benchmarks/servers/child.js <framework>     (built: the packages' dist)
import { fileURLToPath } from 'node:url';
import { FRAMEWORKS, SERVER_MODULES, type Framework } from './server.ts';

const name = process.argv[2] as Framework;
if (!FRAMEWORKS.includes(name)) {
  console.error(`unknown framework "${name}" (one of: ${FRAMEWORKS.join(', ')})`);
  process.exit(2);
}
const server = await (await SERVER_MODULES[name]()).start();
const core = fileURLToPath(import.meta.resolve('@hickory/core'));
process.stdout.write(`${JSON.stringify({ port: server.port, skipped: server.skipped, core })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
