import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coreShares, coreTimes, processCpuMicros } from './process-cpu.ts';

const stat = (user: number, system: number, idle: number, irq: number, steal: number) =>
  `cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 ${user} 0 ${system} ${idle} 0 ${irq} 0 ${steal} 0 0\ncpu1 9 9 9 9 9 9 9 9 0 0\n`;

test("a core's times come from its /proc/stat line, in µs (ticks of 10 ms)", () => {
  assert.deepEqual(coreTimes(0, stat(100, 50, 40, 5, 10)), { busy: 1_600_000, idle: 400_000, total: 2_050_000 });
  assert.equal(coreTimes(7, stat(1, 1, 1, 1, 1)), undefined);
});

test("over a run, the server core's time splits into the server's, other work's and idle time", () => {
  const before = coreTimes(0, stat(100, 50, 40, 5, 10))!;
  // 100 ticks later: 80 busy (of which the server had 0.6 s = 60 ticks), 10 idle, 10 in interrupts.
  const after = coreTimes(0, stat(170, 55, 50, 15, 15))!;
  const shares = coreShares(before, after, 600_000)!;
  assert.equal(shares.other.toFixed(2), '0.20');
  assert.equal(shares.idle.toFixed(2), '0.10');
  assert.equal(coreShares(before, before, 0), undefined);
});

test("this process's CPU time is read from /proc and grows with work", () => {
  const before = processCpuMicros(process.pid)!;
  const until = performance.now() + 50;
  while (performance.now() < until); // 50 ms of CPU
  assert.ok(processCpuMicros(process.pid)! >= before + 30_000);
  assert.equal(processCpuMicros(2 ** 30), undefined);
});
