import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { isController } from '@hickory/dispatch/kit';

test('a polluted Object.prototype.exposed makes nothing new routable', async () => {
  const ran: string[] = [];
  class Plain {
    helper() { ran.push('helper'); return 'helper'; }
  }
  class Root {
    plain = new Plain();
    @expose() index() { return 'root'; }
    notExposed() { ran.push('notExposed'); return 'no'; }
  }
  (Object.prototype as Record<string, unknown>)['exposed'] = true;
  (Object.prototype as Record<string, unknown>)['_pecan'] = { exposed: true };
  try {
    const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
    for (const url of ['/notExposed', '/plain/helper', '/plain', '/exposed', '/toString', '/hasOwnProperty']) {
      assert.equal((await app.inject(url)).statusCode, 404, url);
    }
    assert.equal((await app.inject('/')).body, 'root');
    assert.deepEqual(ran, []);
    await app.close();
  } finally {
    delete (Object.prototype as Record<string, unknown>)['exposed'];
    delete (Object.prototype as Record<string, unknown>)['_pecan'];
  }
});

test('a long chain of plain objects in a public field neither overflows the stack at ready() nor routes', async () => {
  let list: object = { value: 0 };
  for (let i = 1; i < 100_000; i++) list = { value: i, next: list };
  class Root {
    history = list;
    @expose() index() { return 'home'; }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  await app.ready();
  assert.equal(isController(list), false);
  assert.equal((await app.inject('/')).body, 'home');
  assert.equal((await app.inject('/history/next/next/')).statusCode, 404);
  await app.close();
});
