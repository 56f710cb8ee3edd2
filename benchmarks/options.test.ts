import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions } from './options.ts';

test('a full run measures this Node and Node 26.10.0; a quick one this Node only', () => {
  assert.deepEqual(parseOptions([]).nodes, ['current', '26.10.0']);
  assert.deepEqual(parseOptions(['--quick']).nodes, ['current']);
});

test('by default: Hickory four ways and its peers (fastify with and without @fastify/etag) on three routes, 3 rounds of 7 s after 2 s of warm-up, the server on core 0 and wrk on core 1', () => {
  const options = parseOptions([]);
  assert.deepEqual(options.frameworks, ['hickory-app-schema', 'hickory-schema', 'hickory-app', 'hickory', 'fastify', 'fastify-etag', 'node', 'express']);
  assert.deepEqual(options.routes, ['hello', 'depth8', 'rest']);
  assert.deepEqual([options.rounds, options.duration, options.warmup, options.connections], [3, 7, 2, 256]);
  assert.deepEqual([options.serverCore, options.clientCores, options.threads], [0, [1], 1]);
  const quick = parseOptions(['--quick']);
  assert.deepEqual([quick.rounds, quick.duration, quick.warmup, quick.write], [1, 1, 1, false]);
});

test('wrk gets a thread per core it is pinned to unless --threads says otherwise', () => {
  const options = parseOptions(['--server-core', '0', '--client-cores', '1-8']);
  assert.deepEqual(options.clientCores, [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(options.threads, 8);
  assert.equal(parseOptions(['--client-cores', '2,3', '--threads', '1']).threads, 1);
});

test('wrong settings are refused with the reason: fractions of a second, pipelining, a core that is not a number', () => {
  assert.throws(() => parseOptions(['--duration', '2.5']), /--duration takes whole seconds \(wrk's unit\), got "2\.5"/);
  assert.throws(() => parseOptions(['--pipelining', '10']), /Unknown option '--pipelining'/);
  assert.throws(() => parseOptions(['--server-core', 'first']), /--server-core takes one core's number, got "first"/);
  assert.throws(() => parseOptions(['--client-cores', '3-1']), /"3-1" in "3-1": a range goes from the lower core to the higher/);
  assert.throws(() => parseOptions(['--frameworks', 'hickory,rails']), /unknown framework "rails"/);
});

test('--node takes a comma-separated list, in the order given', () => {
  assert.deepEqual(parseOptions(['--node', '26.10.0,current']).nodes, ['26.10.0', 'current']);
  assert.deepEqual(parseOptions(['--quick', '--node', 'current, 26.10.0, /opt/node/bin/node']).nodes, ['current', '26.10.0', '/opt/node/bin/node']);
  assert.deepEqual(parseOptions(['--node', 'current,current']).nodes, ['current']);
});

test('--node refuses an empty list and a word that is neither current, a version nor a path', () => {
  assert.throws(() => parseOptions(['--node', ',']), /at least one entry/);
  assert.throws(() => parseOptions(['--node', 'current,26']), /--node 26: not "current", a version/);
  assert.throws(() => parseOptions(['--node', 'latest']), /--node latest/);
});

test('the depth benchmark runs when a Hickory server is measured, and a full run writes', () => {
  const options = parseOptions(['--node', 'current,26.10.0']);
  assert.equal(options.depth, true);
  assert.equal(options.write, true);
  assert.equal(parseOptions(['--frameworks', 'hickory-app,fastify']).depth, true);
  assert.equal(parseOptions(['--frameworks', 'node,fastify']).depth, false);
  assert.equal(parseOptions(['--node', '26.10.0', '--dry-run']).write, false);
  assert.equal(parseOptions(['--quick', '--node', 'current,26.10.0']).write, false);
  assert.equal(parseOptions(['--no-depth']).depth, false);
});
