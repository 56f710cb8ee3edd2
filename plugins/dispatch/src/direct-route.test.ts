import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel, type Request } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { directRoute, guard, type DirectRoute } from '@hickory/dispatch/kit';

// A self-routing controller whose `_route` carries a shortcut: `/r/<n>` by number at once, the
// rest through `_route`. Both count their calls.
function setup() {
  const calls = { route: 0, direct: 0 };
  class Routed {
    @expose() show(n: string) { return `show ${n}`; }
    @expose() other(n: string) { return `other ${n}`; }
    _route(remainder: string[]) {
      calls.route++;
      return remainder[0] === 'other' ? [this.other, remainder.slice(1)] : [this.show, remainder];
    }
  }
  const direct: DirectRoute = (controller, table, remainder, request: Request) => {
    calls.direct++;
    if (remainder.length !== 1 || !/^\d+$/.test(remainder[0]!) || request.method !== 'GET') return undefined;
    return { controller, table, fn: Routed.prototype.show, remainder: [...remainder], canonical: false };
  };
  Object.defineProperty(Routed.prototype._route, directRoute, { value: direct });
  class Overriding extends Routed {
    override _route(remainder: string[]) { return super._route(remainder.length === 0 ? ['0'] : remainder); }
  }
  class Root {
    r = new Routed();
    o = new Overriding();
  }
  const root = new Root();
  return { app: createKernel({ root, logger: false }).use(dispatchPlugin), calls, root };
}

test("a `_route`'s shortcut answers where it can, without calling `_route`", async () => {
  const { app, calls } = setup();
  const res = await app.inject('/r/7');
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, 'show 7');
  assert.deepEqual(calls, { route: 0, direct: 1 });
  await app.close();
});

test('where the shortcut gives nothing, `_route` decides as always', async () => {
  const { app, calls } = setup();
  assert.equal((await app.inject('/r/other/3')).body, 'other 3');
  assert.deepEqual(calls, { route: 1, direct: 1 });
  const post = await app.inject({ method: 'POST', url: '/r/5' });
  assert.equal(post.body, 'show 5');
  assert.deepEqual(calls, { route: 2, direct: 2 });
  await app.close();
});

test("an overridden `_route` is the table's own function: its base's shortcut is not taken", async () => {
  const { app, calls } = setup();
  const res = await app.inject('/o');
  assert.equal(res.body, 'show 0');
  assert.equal((await app.inject('/o/9')).body, 'show 9');
  assert.deepEqual(calls, { route: 2, direct: 0 });
  await app.close();
});

test("a `_route` reached through another `_route`'s answer is asked its own shortcut", async () => {
  const calls: string[] = [];
  class Inner {
    @expose() show(n: string) { return `inner ${n}`; }
    _route(remainder: string[]) {
      calls.push('inner _route');
      return [this.show, remainder];
    }
  }
  const inner = new Inner();
  class Outer {
    _route(remainder: string[]) {
      calls.push('outer _route');
      return [inner, remainder.slice(1)];
    }
  }
  Object.defineProperty(Outer.prototype._route, directRoute, { value: (() => (calls.push('outer shortcut'), undefined)) satisfies DirectRoute });
  Object.defineProperty(Inner.prototype._route, directRoute, {
    value: ((controller, table, remainder) => (calls.push('inner shortcut'), { controller, table, fn: Inner.prototype.show, remainder: [...remainder], canonical: false })) satisfies DirectRoute,
  });
  class Root {
    outer = new Outer();
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  const res = await app.inject('/outer/in/4');
  assert.equal(res.body, 'inner 4');
  assert.deepEqual(calls, ['outer shortcut', 'outer _route', 'inner shortcut']);
  await app.close();
});

// Last in this file: once a guard is declared, every routing in the process checks its trail.
test("a guarded `_route` controller's check runs before its shortcut, and a refusal stops it", async () => {
  const { app, calls, root } = setup();
  const order: string[] = [];
  class Gate {
    r = root.r;
  }
  const gate = new Gate();
  guard(gate, (_controller, request) => {
    order.push(`check ${request.path}`);
    if (request.path.endsWith('/0')) abort(403);
  });
  class GatedRoot {
    gate = gate;
  }
  const gated = createKernel({ root: new GatedRoot(), logger: false }).use(dispatchPlugin);
  assert.equal((await gated.inject('/gate/r/7')).body, 'show 7');
  assert.deepEqual(order, ['check /gate/r/7']);
  assert.deepEqual(calls, { route: 0, direct: 1 });
  assert.equal((await gated.inject('/gate/r/0')).statusCode, 403);
  assert.deepEqual(order, ['check /gate/r/7', 'check /gate/r/0']);
  assert.deepEqual(calls, { route: 0, direct: 1 });
  await Promise.all([app.close(), gated.close()]);
});
