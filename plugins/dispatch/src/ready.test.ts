import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin } from '@hickory/dispatch';

test('a missing root fails at ready() and says to set `root`', async () => {
  await assert.rejects(createKernel({ logger: false }).use(dispatchPlugin).ready(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_DISPATCH_NO_ROOT');
    assert.match(error.message, /set `root` in the configuration/);
    return true;
  });
});

test('a root with nothing routable fails at ready()', async () => {
  class Empty {
    helper() { return 'not exposed'; }
  }
  await assert.rejects(
    createKernel({ root: new Empty(), logger: false }).use(dispatchPlugin).ready(),
    /The root controller \(an object \(Empty\)\) has nothing routable: expose a method with @expose\(\)/,
  );
});
