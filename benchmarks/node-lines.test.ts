import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeLabel, parseNodeList, resolveNodeLines } from './node-lines.ts';

test('parseNodeList falls back when absent, trims, drops empty entries and repeats', () => {
  assert.deepEqual(parseNodeList(undefined, ['current']), ['current']);
  assert.deepEqual(parseNodeList(' current ,, 26.10.0,current', []), ['current', '26.10.0']);
  assert.deepEqual(parseNodeList('./node', []), ['./node']);
});

test('resolveNodeLines gives this process for current, and refuses a path that is not there', () => {
  assert.deepEqual(resolveNodeLines(['current']), [{ spec: 'current', binary: process.execPath, version: process.version }]);
  assert.throws(() => resolveNodeLines(['/no/such/node']), /no such file/);
});

test('resolveNodeLines refuses two entries of the same version: their columns would carry one label', () => {
  assert.throws(() => resolveNodeLines(['current', process.execPath]), /are both Node v/);
});

test('a line is labelled with its exact version', () => {
  assert.equal(nodeLabel('v26.10.0'), 'Node 26.10.0');
});
