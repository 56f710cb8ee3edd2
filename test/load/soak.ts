import { formatReport, problemsOf, runLoad } from './run-load.ts';

// The soak: the CI load run made longer (default 60 s, 100 connections, 10 s warm-up).
//   node --conditions=source --import tsx test/load/soak.ts [seconds] [connections]
// Exits 1 when anything failed (errors, timeouts, unexpected statuses, the memory held after a GC
// growing by 50 MiB or more; the RSS is reported).

const seconds = Number(process.argv[2] ?? process.env['HICKORY_SOAK_SECONDS'] ?? 60);
const connections = Number(process.argv[3] ?? process.env['HICKORY_SOAK_CONNECTIONS'] ?? 100);
const report = await runLoad({ seconds, connections, warmup: 10 });
console.log(formatReport(report));
const problems = problemsOf(report);
if (problems.length > 0) {
  console.error(`SOAK FAILED:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('soak passed');
