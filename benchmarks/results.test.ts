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
  const tables = markdownTables(results).split('\n');
  assert.ok(tables.includes('| hickory | 39,750<br><sub>p99 59 ms</sub> | 40,619<br><sub>p99 61 ms</sub> | 35,976<br><sub>p99 68 ms</sub> | 18,956<br><sub>p99 294 ms</sub> |'));
  assert.ok(tables.includes('| dispatch slope (resolvePath) | Node 20.20.2 | 43.4 ns |  | ≤ 30 ns/segment | **not met** |'));
});

test('a results file with lines is read as it is', () => {
  const results = readResults(JSON.parse(readFileSync(new URL('./results/2026-11-23.json', import.meta.url), 'utf8')));
  assert.equal(readResults(results), results);
});
