// One server counted in process, under callgrind (started by `count-in-process.ts`, compiled, as
// `valgrind --tool=callgrind --instr-atstart=no node --single-threaded …/in-process-child.js
// <variant> <route> <windows> <requests> <warm-up>`): the server is started in this process, warmed
// up, then each window's requests are counted with instrumentation on, the counters zeroed before
// and read after with `callgrind_control`. Prints `{"windows":[…]}` (instructions per request) last.
import { execFileSync } from 'node:child_process';
import { sendRequests, serverOf } from '../in-process-server.ts';
import { ROUTE_PATHS, type RouteName } from '../routes.ts';
import type { VariantName } from '../servers/variants.ts';

const [variant, route, windows, requests, warmUp] = process.argv.slice(2) as [VariantName, RouteName, string, string, string];
// As `npm run bench` runs its servers: what is checked only in development is not counted.
process.env['NODE_ENV'] = 'production';
const server = await serverOf(variant);
const path = ROUTE_PATHS[route];
await sendRequests(server, path, Number(warmUp));

const control = (...args: string[]) => execFileSync('callgrind_control', [...args, String(process.pid)], { encoding: 'utf8' });
const perRequest: number[] = [];
for (let window = 0; window < Number(windows); window++) {
  control('--zero');
  control('--instr=on');
  await sendRequests(server, path, Number(requests));
  // Read while instrumentation is on (callgrind reports nothing when it is off): every thread's total.
  const totals = [...control('-e', 'Ir').matchAll(/Th \d+\s+([\d,]+)/g)].map((m) => Number(m[1]!.replaceAll(',', '')));
  control('--instr=off');
  perRequest.push(Math.round(totals.reduce((a, b) => a + b, 0) / Number(requests)));
}
console.log(JSON.stringify({ windows: perRequest }));
process.exit(0);
