// The side-by-side suite's options and Markdown (its flow over real sockets: side-by-side-smoke.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PairedRound } from './http/paired-round.ts';
import { replaceBetweenMarkers } from './report.ts';
import { parsePairs, parseSideBySideOptions } from './side-by-side-options.ts';
import { sideBySideBlock, sideBySideMarkers, sideBySideTable } from './side-by-side-report.ts';

test('pairs are read as A:B, in the order given, each once; unknown servers and malformed pairs are refused', () => {
  assert.deepEqual(parsePairs('hickory-schema:fastify, hickory-app-schema:fastify,hickory-schema:fastify'), [
    ['hickory-schema', 'fastify'],
    ['hickory-app-schema', 'fastify'],
  ]);
  assert.throws(() => parsePairs('hickory:fastfy'), /--pairs: unknown server "fastfy" \(one of: hickory, /);
  assert.throws(() => parsePairs('hickory'), /--pairs: "hickory" is not a pair such as hickory-schema:fastify/);
  assert.throws(() => parsePairs('a:b:c'), /"a:b:c" is not a pair/);
  assert.throws(() => parsePairs(' , '), /--pairs needs at least one pair/);
});

test("the defaults: hickory-schema against fastify on hello, depth8 and rest, 7 rounds of 5 s, this process's Node, nothing written", () => {
  const options = parseSideBySideOptions([]);
  assert.deepEqual(options.pairs, [['hickory-schema', 'fastify']]);
  assert.deepEqual(options.routes, ['hello', 'depth8', 'rest']);
  assert.deepEqual([options.rounds, options.duration, options.warmup, options.connections, options.threads], [7, 5, 2, 256, 1]);
  assert.deepEqual([options.serverCore, options.clientCores, options.nodes, options.write], [0, [1], ['current'], false]);
});

test('--pair and --pairs add up; --control adds the first pair\'s B against itself, once', () => {
  const options = parseSideBySideOptions(['--pair', 'hickory-app-schema,fastify', '--pairs', 'hickory-schema:fastify', '--control', '--node', 'current,/opt/node/bin/node']);
  assert.deepEqual(options.pairs, [
    ['hickory-app-schema', 'fastify'],
    ['hickory-schema', 'fastify'],
    ['fastify', 'fastify'],
  ]);
  assert.deepEqual(options.nodes, ['current', '/opt/node/bin/node']);
  assert.deepEqual(parseSideBySideOptions(['--pairs', 'fastify:fastify', '--control']).pairs, [['fastify', 'fastify']]);
  assert.throws(() => parseSideBySideOptions(['--pair', 'hickory,fastify,node']), /--pair takes two servers, A,B: got "hickory,fastify,node"/);
  assert.throws(() => parseSideBySideOptions(['--duration', '1.5']), /--duration takes whole seconds/);
});

const sample = (rps: number, cpuPerRequest: number, failures = 0) => ({ rps, requests: rps * 5, p50: 1, p99: 2, failures, loadAverage: 1, cpuPerRequest });

test('the table: a row per route and pair with the median ratios and their range, the medians of each side, and the flags', () => {
  const rounds: PairedRound[] = [
    { sides: [sample(21_000, 19), sample(20_000, 20)], first: 0, serverCore: { other: 0.1, idle: 0.01 } },
    { sides: [sample(19_000, 21), sample(20_000, 20, 2)], first: 1, serverCore: { other: 0.3, idle: 0.08 } },
    { sides: [sample(20_000, 20), sample(20_000, 20)], first: 0, serverCore: { other: 0, idle: 0 } },
  ];
  const table = sideBySideTable([
    { pair: ['hickory-schema', 'fastify'], route: 'hello', rounds },
    { pair: ['hickory-schema', 'fastify'], route: 'page', rounds: [], skipped: 'hickory-schema: GET /page answered 500 "a|b"' },
  ]).split('\n');
  assert.equal(table.length, 4);
  assert.equal(
    table[2],
    '| GET /hello (JSON) | hickory-schema / fastify | **1.00×**<br><sub>0.95–1.05</sub> | **1.00×**<br><sub>0.95–1.05</sub> | 20.0 / 20.0 | 20.0k / 20.0k | 10%<br><sub>0–30%</sub> | 3 (1 starved (core idle up to 8%), 2 failed requests) |',
  );
  assert.equal(table[3], '| ejs page | hickory-schema / fastify | skipped: hickory-schema: GET /page answered 500 "a\\|b" | | | | | |');
});

test("each Node line's block has markers of its own, so that a run on one line keeps the other's table", () => {
  const block20 = sideBySideBlock({ date: '2026-11-28', version: 'v20.20.2', command: 'npm run bench:side-by-side -- --control', loadAverage: 1.5 }, []);
  assert.match(block20, /^Run of 2026-11-28, servers on Node 20\.20\.2, load average 1\.5 at the start: `npm run bench:side-by-side -- --control`\n/);
  const readme = replaceBetweenMarkers(replaceBetweenMarkers('# Benchmarks\n', block20, sideBySideMarkers('v20.20.2')), 'node 26 table', sideBySideMarkers('v26.10.0'));
  const again = replaceBetweenMarkers(readme, 'newer node 20 table', sideBySideMarkers('v20.1.0'));
  assert.equal(
    again,
    '# Benchmarks\n\n## Side by side, Node 20\n\n<!-- side-by-side-node20:start (written by benchmarks/side-by-side.ts; do not edit by hand) -->\nnewer node 20 table\n<!-- side-by-side-node20:end -->\n\n' +
      '## Side by side, Node 26\n\n<!-- side-by-side-node26:start (written by benchmarks/side-by-side.ts; do not edit by hand) -->\nnode 26 table\n<!-- side-by-side-node26:end -->\n',
  );
});
