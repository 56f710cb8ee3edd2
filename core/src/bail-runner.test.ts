import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncSeriesBailHook } from 'tapable';
import { bailRunner } from './bail-runner.ts';
import { tapDirect } from './hooks.ts';

test('a direct tap whose `active` says false at ready() is left out of the runner, keeping the others in order', async () => {
  const calls: string[] = [];
  let on = false;
  const hook = new AsyncSeriesBailHook<[string, string], string | undefined>(['a', 'b']);
  tapDirect(hook, 'first', () => void calls.push('first'));
  tapDirect(hook, 'switchable', () => (on ? 'switchable answered' : undefined), { active: () => on });
  tapDirect(hook, 'last', () => 'last answered');

  const without = bailRunner(hook)!;
  assert.equal(without('x', 'y'), 'last answered');
  assert.deepEqual(calls, ['first']);

  on = true;
  assert.equal(bailRunner(hook)!('x', 'y'), 'switchable answered');
  // Through tapable itself every tap is called: the tap must answer correctly when off.
  on = false;
  assert.equal(await hook.promise('x', 'y'), 'last answered');
});

test('a hook whose only tap is inactive has no runner: the pipeline skips the step', () => {
  const hook = new AsyncSeriesBailHook<[string, string], string | undefined>(['a', 'b']);
  tapDirect(hook, 'static', () => undefined, { active: () => false });
  assert.equal(bailRunner(hook), undefined);
});
