import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReport, problemsOf, runLoad } from './run-load.ts';

// Load in CI: 100 connections for 10 s (HICKORY_LOAD_SECONDS / HICKORY_LOAD_CONNECTIONS change
// it) against JSON, template, REST, 404 and `_lookup` routes, all on 127.0.0.1: zero errors,
// zero timeouts, zero unexpected statuses, the memory the server holds after a GC (V8 heap in use
// and external memory) growing by less than 50 MiB from the end of the warm-up (its RSS is reported).
// The longer run is `test/load/soak.ts`.

const seconds = Number(process.env['HICKORY_LOAD_SECONDS'] ?? 10);
const connections = Number(process.env['HICKORY_LOAD_CONNECTIONS'] ?? 100);

test(`load: ${connections} connections for ${seconds} s, nothing lost`, { timeout: (seconds + 40) * 1000 }, async () => {
  const report = await runLoad({ seconds, connections, warmup: 2 });
  console.log(formatReport(report));
  assert.deepEqual(problemsOf(report), []);
});
