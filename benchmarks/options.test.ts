import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions } from './options.ts';

test('a full run measures this Node and Node 26.10.0; a quick one this Node only', () => {
  assert.deepEqual(parseOptions([]).nodes, ['current', '26.10.0']);
  assert.deepEqual(parseOptions(['--quick']).nodes, ['current']);
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

test('the depth benchmark runs whatever the lines, and a run on several lines writes', () => {
  const options = parseOptions(['--node', 'current,26.10.0']);
  assert.equal(options.depth, true);
  assert.equal(options.write, true);
  assert.equal(parseOptions(['--node', '26.10.0', '--dry-run']).write, false);
  assert.equal(parseOptions(['--quick', '--node', 'current,26.10.0']).write, false);
  assert.equal(parseOptions(['--no-depth']).depth, false);
});
