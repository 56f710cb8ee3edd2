import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpCell } from './http/load.ts';
import type { Results } from './results.ts';
import { markdownTables } from './tables.ts';

function cell(framework: HttpCell['framework'], rps: number, p99: number, cpuPerRequest: number): HttpCell {
  return { framework, route: 'hello', rps, p50: p99 / 2, p99, cpuPerRequest, samples: [], failures: 0 };
}

// Two lines, two frameworks, one route: small enough to spell out every line of the tables.
const results: Results = {
  date: '2026-11-25',
  command: 'npm run bench -- --routes hello --frameworks hickory,fastify',
  settings: {
    quick: false,
    frameworks: ['hickory', 'fastify'],
    routes: ['hello'],
    rounds: 5,
    duration: 3,
    warmup: 2,
    connections: 100,
    pipelining: 10,
    depthCpuMs: 300,
    depth: false,
    nodes: ['current', '26.10.0'],
  },
  machine: { cores: 2, model: 'AMD EPYC', node: 'v20.20.2', os: 'Linux 6.18 x64', memoryGiB: 23.5, loadAverage: 0.5, note: '' },
  loadAverageAtEnd: 1.25,
  lines: [
    {
      node: 'v20.20.2',
      binary: '/usr/bin/node',
      http: [cell('hickory', 40_000.4, 59, 24.71), cell('fastify', 50_000, 44, 19)],
      targets: [{ name: 'GET /hello vs fastify', value: 0.8, range: [0.75, 0.9], goal: '≥ 1.00×', pass: false, unit: '×' }],
    },
    {
      node: 'v26.10.0',
      binary: '/cache/node/26.10.0/bin/node',
      http: [cell('hickory', 52_345, 40, 18.04), { framework: 'fastify', route: 'hello', samples: [], failures: 0, skipped: 'broken' }],
      targets: [{ name: 'GET /hello vs fastify', goal: '≥ 1.00×', unit: '×' }],
    },
  ],
  targets: [{ name: 'dispatch slope (resolvePath)', goal: '≤ 30 ns/segment', unit: 'ns' }],
};

test('the tables put each Node line next to the other, labelled with its exact version', () => {
  assert.deepEqual(markdownTables(results).split('\n'), [
    'Run of 2026-11-25: `npm run bench -- --routes hello --frameworks hickory,fastify`  ',
    'Machine: 2 × AMD EPYC, 23.5 GiB, Linux 6.18 x64; the load generator and the depth benchmark on Node 20.20.2, the servers on Node 20.20.2, Node 26.10.0 (one line after the other); 1-minute load average 0.5 at the start, 1.25 at the end.  ',
    'autocannon: 100 connections, pipelining 10, 2 s warm-up, 5 round(s) × 3 s per framework and route, frameworks interleaved within each Node line; median of the rounds. **Client and server share the cores** (one process each, over 127.0.0.1) on a shared, noisy machine: compare ratios within a run and a line, not absolute numbers across runs.',
    '',
    '**Requests per second** (median; p99 latency in ms below), a column per route and Node line',
    '',
    '| framework | GET /hello (JSON)<br>`/hello`<br>Node 20.20.2 | GET /hello (JSON)<br>`/hello`<br>Node 26.10.0 |',
    '|---|---:|---:|',
    '| hickory | 40,000<br><sub>p99 59 ms</sub> | 52,345<br><sub>p99 40 ms</sub> |',
    '| fastify 5 | 50,000<br><sub>p99 44 ms</sub> | n/a ¹ |',
    '',
    '¹ fastify 5 hello on Node 26.10.0: broken  ',
    '',
    "**Server CPU time per request** (µs, user + system from /proc, median of the rounds; lower is better). Throughput on a shared machine swings with other tenants' load; the CPU a server spends per request moves less, and shows what each framework costs.",
    '',
    '| framework | GET /hello (JSON)<br>Node 20.20.2 | GET /hello (JSON)<br>Node 26.10.0 |',
    '|---|---:|---:|',
    '| hickory | 24.7 | 18.0 |',
    '| fastify 5 | 19.0 | n/a |',
    '',
    '**Targets** (Hickory against its peer: the median over the rounds of the ratio within a round, on one Node line; the range shows the noise)',
    '',
    '| target | Node | measured | per-round range | goal | |',
    '|---|---|---:|---:|---|---|',
    '| GET /hello vs fastify | Node 20.20.2 | 0.80× | 0.75–0.90× | ≥ 1.00× | **not met** |',
    '| GET /hello vs fastify | Node 26.10.0 | not measured |  | ≥ 1.00× | — |',
    '| dispatch slope (resolvePath) | Node 20.20.2 | not measured |  | ≤ 30 ns/segment | — |',
    '',
    '![requests per second](results/req-per-s.svg)',
    '',
    '![dispatch cost against depth](results/depth.svg)',
  ]);
});
