import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readResults } from './results.ts';
import { markdownTables } from './tables.ts';

test('a results file written before the lines reads as one line on the benchmark\'s Node', () => {
  const old = JSON.parse(readFileSync(new URL('./results/2026-11-23.json', import.meta.url), 'utf8'));
  const results = readResults(old);
  assert.equal(results.lines.length, 1);
  assert.equal(results.lines[0]!.node, 'v20.20.2');
  assert.deepEqual(results.settings.nodes, ['current']);
  assert.deepEqual(results.targets.map((t) => t.name), ['dispatch slope (resolvePath)']);
  assert.equal(results.lines[0]!.targets.length, old.targets.length - 1);
  // Shown in today's tables, and labelled with the method it was measured by.
  const tables = markdownTables(results).split('\n');
  assert.equal(tables[2], 'Method (before issue #32): autocannon, 100 connections, pipelining 10, 2 s warm-up, 5 round(s) × 3 s; **client and server shared the cores**, which hides differences of 10–20%.');
  assert.ok(tables.find((line) => line.startsWith('| hickory, `createKernel()` | '))!.startsWith('| hickory, `createKernel()` | 39,750 · 0.87×<br><sub>38,765–49,244 · 0.74–1.11×</sub> | 24.7 · 1.19×'));
  assert.ok(tables.includes('| dispatch slope (resolvePath) | Node 20.20.2 | 43.4 ns |  | ≤ 30 ns/segment | **not met** |'));
});

test('a results file with lines is read as it is', () => {
  const results = readResults(JSON.parse(readFileSync(new URL('./results/2026-11-23.json', import.meta.url), 'utf8')));
  assert.equal(readResults(results), results);
});
