import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Count } from './count.ts';
import { instructionsTable, type InstructionsRun } from './table.ts';

const hello = (variant: Count['variant'], perRequest: number): Count => ({ variant, route: 'hello', perRequest, windows: [perRequest] });

const run: InstructionsRun = {
  date: '2026-11-25',
  command: 'npm run bench:instructions -- --routes hello,rest --frameworks hickory,fastify,node,node-als',
  machine: { cores: 2, model: 'AMD EPYC', node: 'v20.20.2', os: 'Linux 6.18 x64', memoryGiB: 23.5, loadAverage: 0.5, note: '' },
  settings: { requests: 10_000, connections: 100, pipelining: 10, windows: 3, routes: ['hello', 'rest'], frameworks: ['hickory', 'fastify', 'node', 'node-als'], nodes: ['current', '26.10.0'] },
  lines: [
    { node: 'v20.20.2', binary: '/usr/bin/node', counts: [hello('hickory', 59_200), hello('fastify', 53_300), hello('node', 49_600), hello('node-als', 56_700)] },
    // No node-als count on this line: no note on what the context costs there.
    { node: 'v26.10.0', binary: '/cache/26.10.0/bin/node', counts: [hello('hickory', 41_800), hello('fastify', 38_400), hello('node', 34_100), { variant: 'node', route: 'rest', skipped: 'broken' }] },
  ],
};

test('one table, a column group per Node line: each variant, then hickory / fastify', () => {
  const lines = instructionsTable(run).split('\n');
  assert.equal(lines[0], 'Run of 2026-11-25: `npm run bench:instructions -- --routes hello,rest --frameworks hickory,fastify,node,node-als`  ');
  assert.match(lines[1]!, /^valgrind's callgrind; per server and route 40,000 requests of warm-up, then 3 counted windows of 10,000 .* Servers on Node 20\.20\.2, Node 26\.10\.0, one line after the other; a column group per line\.$/);
  assert.deepEqual(lines.slice(2), [
    '',
    '| route | Node 20.20.2<br>hickory, `createKernel()` | Node 20.20.2<br>fastify 5 | Node 20.20.2<br>node:http | Node 20.20.2<br>node:http + AsyncLocalStorage | Node 20.20.2<br>hickory / fastify | Node 26.10.0<br>hickory, `createKernel()` | Node 26.10.0<br>fastify 5 | Node 26.10.0<br>node:http | Node 26.10.0<br>node:http + AsyncLocalStorage | Node 26.10.0<br>hickory / fastify |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    '| GET /hello (JSON) | 59.2k | 53.3k | 49.6k | 56.7k | 1.11× | 41.8k | 38.4k | 34.1k | – | 1.09× |',
    '| REST get_one /books/42 | – | – | – | – | – | – | – | – | – | – |',
    '',
    "On `/hello` on Node 20.20.2, an AsyncLocalStorage alone adds 7.1k instructions a request to node:http. Hickory's request context is such a storage; without it Hickory would need about 52.1k, 0.98× of fastify's 53.3k, and its own work (everything above node:http) is 2.5k against fastify's 3.7k.",
  ]);
});

test('without fastify among the counted, a line has no ratio column', () => {
  const lines = instructionsTable({ ...run, settings: { ...run.settings, frameworks: ['hickory', 'node'] } }).split('\n');
  assert.equal(lines[3], '| route | Node 20.20.2<br>hickory, `createKernel()` | Node 20.20.2<br>node:http | Node 26.10.0<br>hickory, `createKernel()` | Node 26.10.0<br>node:http |');
  assert.equal(lines[5], '| GET /hello (JSON) | 59.2k | 49.6k | 41.8k | 34.1k |');
});

test('in process: the method says so, and the ratio is the first Hickory variant counted against fastify', () => {
  const inProcess: InstructionsRun = {
    ...run,
    settings: { ...run.settings, requests: 3000, frameworks: ['hickory-schema', 'fastify'], inProcess: true },
    lines: [{ node: 'v26.10.0', binary: '/cache/26.10.0/bin/node', counts: [hello('hickory-schema', 25_600), hello('fastify', 22_800)] }],
  };
  const lines = instructionsTable(inProcess).split('\n');
  assert.match(lines[1]!, /^valgrind's callgrind, each server in a process of its own with V8 on one thread .* 60,000 requests of warm-up, then 3 counted windows of 3,000 \(the lowest shown\)/);
  assert.equal(lines[3], '| route | Node 26.10.0<br>hickory, `createKernel()`, response schemas | Node 26.10.0<br>fastify 5 | Node 26.10.0<br>hickory-schema / fastify |');
  assert.equal(lines[5], '| GET /hello (JSON) | 25.6k | 22.8k | 1.12× |');
});
