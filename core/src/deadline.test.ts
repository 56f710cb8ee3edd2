import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Deadline } from './deadline.ts';
import { HTTPError } from './http-error.ts';

test('a deadline lets what finishes in time through, and answers 503 for what does not', async () => {
  const inTime = new Deadline(100);
  let late = 0;
  assert.equal(await inTime.bound(sleep(10).then(() => 'done'), () => late++), 'done');
  assert.equal(inTime.expired, false);

  const tooSlow = new Deadline(50);
  const started = performance.now();
  await assert.rejects(tooSlow.bound(sleep(1_000), (ms) => (late = ms)), (error: unknown) => error instanceof HTTPError && error.status === 503);
  assert.ok(performance.now() - started < 500);
  assert.equal(late, 50);
  assert.equal(tooSlow.expired, true);
});

test('time spent waiting for the body is left out of the budget', async () => {
  const deadline = new Deadline(80);
  const work = (async () => {
    await deadline.waitingForBody(sleep(150));
    await sleep(20);
    return 'served';
  })();
  assert.equal(await deadline.bound(work, () => assert.fail('the body wait was counted')), 'served');
});
