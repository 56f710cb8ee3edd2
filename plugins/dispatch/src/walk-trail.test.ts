import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, type Request } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { handlerCallOf, recordWalks, walkedControllers } from '@hickory/dispatch/kit';

class Leaf {
  constructor(readonly id: string) {}
  @expose() index() { return `leaf ${this.id}`; }
  @expose() show(n: string) { return `show ${this.id} ${n}`; }
}
class Dead {
  @expose() only() { return 'only'; }
}
class Middle {
  dead = new Dead();
  @expose() index() { return 'middle'; }
  _lookup(id: string, ...rest: string[]) { return id === 'none' ? undefined : [new Leaf(id), rest]; }
}
class Routed {
  _route(remainder: string[]) { return remainder[0] === 'leaf' ? [new Leaf('routed'), remainder.slice(1)] : undefined; }
}
class Root {
  middle = new Middle();
  routed = new Routed();
  @expose() index() { return 'root'; }
  _default(..._rest: string[]) { return 'default'; }
}

// Names the classes of the trail and the handler call, as a later plugin would read them.
function observer(seen: string[]) {
  return definePlugin({
    name: 'observer',
    apply(kernel) {
      kernel.hooks.ready.tap('observer', () => recordWalks(kernel));
      kernel.hooks.beforeHandle.tap('observer', (lookup, request: Request, response) => {
        const call = handlerCallOf(lookup);
        const trail = walkedControllers(request).map((c) => c.constructor.name).join('>');
        seen.push(`${trail} ${call?.controller.constructor.name}.${call?.handler.name}(${call?.argumentsFor(request, response).join(',')})`);
        return undefined;
      });
    },
  });
}

test('with recordWalks, the trail names each controller entered — children, _lookup and _route results — and not those left by a fallback', async () => {
  const seen: string[] = [];
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(observer(seen));
  const cases: Array<[string, string, string]> = [
    ['/', 'root', 'Root Root.index()'],
    ['/middle/', 'middle', 'Root>Middle Middle.index()'],
    ['/middle/7/show/2', 'show 7 2', 'Root>Middle>Leaf Leaf.show(2)'],
    ['/middle/7/show/2.html', 'show 7 2', 'Root>Middle>Leaf Leaf.show(2)'],
    ['/routed/leaf/', 'leaf routed', 'Root>Routed>Leaf Leaf.index()'],
    // Middle's _lookup finds nothing for "none": the walk falls back to Root's _default.
    ['/middle/none/x', 'default', 'Root Root._default(middle,none,x)'],
    // Dead has no index: the walk entered it, then fell back to Middle's _lookup.
    ['/middle/dead/', 'leaf dead', 'Root>Middle>Leaf Leaf.index()'],
  ];
  for (const [url, body, trail] of cases) {
    seen.length = 0;
    const res = await app.inject(url);
    assert.equal(res.body, body, url);
    assert.deepEqual(seen, [trail], url);
  }
  await app.close();
});

test('without recordWalks, nothing is recorded', async () => {
  let trail: readonly object[] | undefined;
  const peek = definePlugin({
    name: 'peek',
    apply(kernel) {
      kernel.hooks.beforeHandle.tap('peek', (_lookup, request) => void (trail = walkedControllers(request)));
    },
  });
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(peek);
  assert.equal((await app.inject('/middle/7/show/1')).body, 'show 7 1');
  assert.deepEqual(trail, []);
  await app.close();
});
