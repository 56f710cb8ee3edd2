import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInstructionsOptions } from './options.ts';

test('instructions are counted on this Node and Node 26.10.0 unless --node says otherwise', () => {
  assert.deepEqual(parseInstructionsOptions([]).nodes, ['current', '26.10.0']);
  assert.deepEqual(parseInstructionsOptions(['--node', '26.10.0']).nodes, ['26.10.0']);
  assert.deepEqual(parseInstructionsOptions(['--node', 'current,26.10.0,/opt/node']).nodes, ['current', '26.10.0', '/opt/node']);
  assert.throws(() => parseInstructionsOptions(['--node', 'twenty']), /--node twenty/);
});

test('--write writes, --dry-run never does, and the defaults leave the variants of their own out', () => {
  assert.equal(parseInstructionsOptions([]).write, false);
  assert.equal(parseInstructionsOptions(['--write']).write, true);
  assert.equal(parseInstructionsOptions(['--write', '--dry-run']).write, false);
  const options = parseInstructionsOptions(['--routes', 'rest,hello', '--frameworks', 'node,hickory']);
  assert.deepEqual(options.routes, ['hello', 'rest']);
  assert.deepEqual(options.variants, ['hickory', 'node']);
  assert.deepEqual(parseInstructionsOptions([]).variants, ['hickory', 'fastify', 'node', 'node-als']);
});

test('--in-process counts in process; over a socket by default', () => {
  assert.equal(parseInstructionsOptions([]).inProcess, false);
  assert.equal(parseInstructionsOptions(['--in-process', '--requests', '3000']).inProcess, true);
});
