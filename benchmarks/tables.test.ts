import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpCell } from './http/load.ts';
import type { LoadSample } from './http/sample.ts';
import type { Results } from './results.ts';
import { summaryTable, markdownTables } from './tables.ts';
import { httpTargets } from './targets.ts';

// Three rounds of one server on /hello: requests/s and µs of CPU per request, round by round.
function cell(framework: HttpCell['framework'], rps: number[], cpu: number[], other = 0.02): HttpCell {
  const samples: LoadSample[] = rps.map((r, i) => ({ rps: r, requests: r * 7, cpuPerRequest: cpu[i], p50: 5, p99: 9, failures: 0, loadAverage: 1, serverCore: { other: other * (i + 1), idle: 0 } }));
  return { framework, route: 'hello', samples, failures: 0 };
}

const v20 = [cell('fastify', [50_000, 52_000, 51_000], [19, 18.5, 18.8]), cell('hickory-app', [47_500, 50_000, 48_000], [20, 19.4, 19.9]), cell('node', [51_000, 50_000, 52_000], [18, 18.2, 18.1])];
const v26 = [cell('fastify', [60_000, 61_000, 59_000], [16, 16.2, 16.4]), cell('hickory-app', [60_600, 59_000, 61_000], [16.1, 16.5, 15.9]), { framework: 'node', route: 'hello', samples: [], failures: 0, skipped: 'broken' } satisfies HttpCell];

// Two lines, three servers, one route: small enough to spell out every line of the tables.
const results: Results = {
  date: '2026-11-26',
  command: 'npm run bench -- --routes hello --frameworks hickory-app,fastify,node',
  settings: {
    quick: false,
    frameworks: ['hickory-app', 'fastify', 'node'],
    routes: ['hello'],
    rounds: 3,
    duration: 7,
    warmup: 2,
    connections: 256,
    threads: 1,
    serverCore: 0,
    clientCores: [1],
    depthCpuMs: 300,
    depth: false,
    nodes: ['current', '26.10.0'],
  },
  machine: { cores: 2, model: 'AMD EPYC', node: 'v20.20.2', os: 'Linux 6.18 x64', memoryGiB: 23.5, loadAverage: 0.5, note: '' },
  loadGenerator: 'debian/4.1.0-3+b2',
  loadAverageAtEnd: 1.25,
  lines: [
    { node: 'v20.20.2', binary: '/usr/bin/node', http: v20, targets: httpTargets(v20, 'v20.20.2') },
    { node: 'v26.10.0', binary: '/cache/node/26.10.0/bin/node', http: v26, targets: httpTargets(v26, 'v26.10.0') },
  ],
  targets: [{ name: 'dispatch slope (resolvePath)', goal: '≤ 15 ns/segment', unit: 'ns' }],
};

test('a table per Node line: fastify first, then each server with its ratio to fastify, medians over the rounds with their spread', () => {
  const lines = markdownTables(results).split('\n');
  assert.equal(lines[0], 'Run of 2026-11-26: `npm run bench -- --routes hello --frameworks hickory-app,fastify,node`  ');
  assert.match(lines[2]!, /^Method: each server runs the packages' `dist` \(built by `tsc -b benchmarks`\), in its own process pinned to core 0 \(`taskset -c 0`\); wrk debian\/4\.1\.0-3\+b2 pinned to core 1 \(`taskset -c 1`\), 1 thread\(s\), 256 connections, keep-alive, no pipelining; 2 s of warm-up per server and route, then 3 round\(s\) × 7 s /);
  assert.deepEqual(lines.slice(3), [
    '',
    "**Node 20.20.2** — the server's core during a run: other work 4% (at most 6%), idle 0% (at most 0%)",
    '',
    '| server | GET /hello (JSON)<br>requests/s | GET /hello (JSON)<br>CPU µs per request |',
    '|---|---:|---:|',
    '| fastify 5 | 51,000<br><sub>50,000–52,000</sub> | 18.8<br><sub>18.5–19.0</sub> |',
    // Round by round: 47,500 / 50,000 = 0.95, 50,000 / 52,000 = 0.96, 48,000 / 51,000 = 0.94; CPU 20 / 19 = 1.053 (shown 1.05×, but over a goal of 1.05).
    '| hickory, `createApp()` | 48,000 · 0.95×<br><sub>47,500–50,000 · 0.94–0.96×</sub> | 19.9 · 1.05×<br><sub>19.4–20.0 · 1.05–1.06×</sub> |',
    '| node:http | 51,000 · 1.02×<br><sub>50,000–52,000 · 0.96–1.02×</sub> | 18.1 · 0.96×<br><sub>18.0–18.2 · 0.95–0.98×</sub> |',
    '',
    "**Node 26.10.0** — the server's core during a run: other work 4% (at most 6%), idle 0% (at most 0%)",
    '',
    '| server | GET /hello (JSON)<br>requests/s | GET /hello (JSON)<br>CPU µs per request |',
    '|---|---:|---:|',
    '| fastify 5 | 60,000<br><sub>59,000–61,000</sub> | 16.2<br><sub>16.0–16.4</sub> |',
    '| hickory, `createApp()` | 60,600 · 1.01×<br><sub>59,000–61,000 · 0.97–1.03×</sub> | 16.1 · 1.01×<br><sub>15.9–16.5 · 0.97–1.02×</sub> |',
    '| node:http | n/a ¹ | n/a |',
    '',
    '¹ node:http hello: broken  ',
    '',
    '**Targets** (Hickory against fastify 5: the median over the rounds of the ratio within a round, on one Node line; the range shows the noise)',
    '',
    '| target | Node | measured | per-round range | goal | |',
    '|---|---|---:|---:|---|---|',
    '| `/hello` requests/s, hickory, `createApp()` / fastify | Node 20.20.2 | 0.95× | 0.94–0.96× | ≥ 0.95× | met |',
    '| `/hello` requests/s, hickory, `createApp()` / fastify | Node 26.10.0 | 1.01× | 0.97–1.03× | ≥ 1.00× | met |',
    '| `/hello` CPU per request, hickory, `createApp()` / fastify | Node 20.20.2 | 1.05× | 1.05–1.06× | ≤ 1.05× | **not met** |',
    '| `/hello` CPU per request, hickory, `createApp()` / fastify | Node 26.10.0 | 1.01× | 0.97–1.02× | ≤ 1.00× | **not met** |',
    '| dispatch slope (resolvePath) | Node 20.20.2 | not measured |  | ≤ 15 ns/segment | — |',
    '',
    '![requests per second](results/req-per-s.svg)',
  ]);
});

test("the README's short table: Hickory / fastify per route, requests/s and CPU per request, a column pair per Node line", () => {
  const lines = summaryTable(results).split('\n');
  assert.match(lines[0]!, /^`npm run bench`, 2026-11-26: each server runs the packages' `dist` on one core, wrk loads it from the other core \(256 connections, keep-alive, no pipelining\), 3 round\(s\) × 7 s after a warm-up, on 2 × AMD EPYC \(load average 0\.5 at the start, 1\.25 at the end\)\./);
  assert.deepEqual(lines.slice(1), [
    '',
    '| Hickory / fastify 5 | Node 20.20.2<br>requests/s | Node 20.20.2<br>CPU per request | Node 26.10.0<br>requests/s | Node 26.10.0<br>CPU per request |',
    '|---|---:|---:|---:|---:|',
    '| GET /hello (JSON), `createApp()` | 0.95× <sub>0.94–0.96</sub> | 1.05× <sub>1.05–1.06</sub> | 1.01× <sub>0.97–1.03</sub> | 1.01× <sub>0.97–1.02</sub> |',
  ]);
});
