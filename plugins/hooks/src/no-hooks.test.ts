// Its own file (its own process): no `@hooks(...)` declaration exists here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { Hook, hooksPlugin } from './index.ts';

class Root { @expose() index() { return 'ok'; } }

test('with no hooks configured or declared, the plugin taps no request hook', async () => {
  const app = createKernel({ root: new Root(), logger: false }).use(hooksPlugin);
  await app.ready();
  const { beforeRoute, afterLookup, beforeHandle, onAbort, onError, beforeSend } = app.hooks;
  assert.deepEqual([beforeRoute, afterLookup, beforeHandle, onAbort, onError, beforeSend].map((hook) => hook.isUsed()), [false, false, false, false, false, false]);
  assert.equal((await app.inject('/')).body, 'ok');
  await app.close();
});

test('one application hook taps them', async () => {
  class Nothing extends Hook { override before() {} }
  const app = createKernel({ root: new Root(), hooks: [new Nothing()], logger: false }).use(hooksPlugin);
  await app.ready();
  assert.deepEqual([app.hooks.beforeRoute, app.hooks.beforeHandle, app.hooks.beforeSend].map((hook) => hook.isUsed()), [true, true, true]);
  await app.close();
});

test('a hooks value that is not a list of hooks fails at ready(), naming the item', async () => {
  const bad = createKernel({ root: new Root(), hooks: ['audit'], logger: false }).use(hooksPlugin);
  await assert.rejects(bad.ready(), {
    code: 'HICKORY_ERR_CONFIG_VALUE',
    message:
      'Configuration key "hooks" must be a list of hooks (Hook instances, or objects with on_route, before, after or on_error methods): item 0 is "audit", which has no hook method.',
  });
  const single = createKernel({ root: new Root(), hooks: new Hook() as unknown as Hook[], logger: false }).use(hooksPlugin);
  await assert.rejects(single.ready(), { code: 'HICKORY_ERR_CONFIG_VALUE', message: /: got an object \(Hook\), not a list\.$/ });
  class Odd extends Hook { override priority = Number.NaN; override before() {} }
  const odd = createKernel({ root: new Root(), hooks: [new Odd()], logger: false }).use(hooksPlugin);
  await assert.rejects(odd.ready(), { code: 'HICKORY_ERR_CONFIG_VALUE', message: /: item 0 \(an object \(Odd\)\) has priority number NaN\.$/ });
});
