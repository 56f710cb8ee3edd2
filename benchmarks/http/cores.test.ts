import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPinning, parseCoreList } from './cores.ts';

test('a taskset core list gives its cores in order, each once', () => {
  assert.deepEqual(parseCoreList('1'), [1]);
  assert.deepEqual(parseCoreList('1-4'), [1, 2, 3, 4]);
  assert.deepEqual(parseCoreList('5, 1-2,2'), [5, 1, 2]);
  assert.throws(() => parseCoreList('one'), /"one" is not a list of cores such as 1, 1-8 or 1,3,5-7/);
  assert.throws(() => parseCoreList('1,,2'), /is not a list of cores/);
});

test('the server and the load generator never share a core, and each core must exist', () => {
  assert.throws(() => checkPinning(0, [1], 1), /this machine offers 1 core: the server and the load generator need one each/);
  assert.throws(() => checkPinning(0, [0, 1], 2), /core 0 is both the server's and the load generator's/);
  assert.throws(() => checkPinning(0, [2], 2), /core 2 is not among this machine's 2 \(0-1\): pass --server-core and --client-cores/);
  assert.doesNotThrow(() => checkPinning(0, [1], 2));
});
