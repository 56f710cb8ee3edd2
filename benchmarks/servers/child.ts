// The child process that serves one framework: it prints one JSON line
// `{ "port": …, "skipped": { … } }` on stdout and stops when its stdin closes.
//
//   node --conditions=source --import tsx benchmarks/servers/child.ts <framework>
import { FRAMEWORKS, SERVER_MODULES, type Framework } from './server.ts';

const name = process.argv[2] as Framework;
if (!FRAMEWORKS.includes(name)) {
  console.error(`unknown framework "${name}" (one of: ${FRAMEWORKS.join(', ')})`);
  process.exit(2);
}
const server = await (await SERVER_MODULES[name]()).start();
process.stdout.write(`${JSON.stringify({ port: server.port, skipped: server.skipped })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
