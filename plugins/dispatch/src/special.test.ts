import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel, type Request } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';

class Item {
  constructor(readonly id: string) {}
  @expose('json') index() { return { id: this.id }; }
  @expose() label(suffix = '') { return `item ${this.id}${suffix}`; }
}

test('_lookup returns a controller and the remainder; routing continues in it', async () => {
  class Root {
    @expose() index() { return 'root'; }
    async _lookup(id: string, ...remainder: string[]) {
      if (id === 'missing') abort(404, 'No such item');
      await Promise.resolve();
      return [new Item(id), remainder];
    }
  }
  const a = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/7/')).body, '{"id":"7"}');
  assert.equal((await a.inject('/7/label')).body, 'item 7');
  assert.equal((await a.inject('/7/label/!')).body, 'item 7!');
  assert.equal((await a.inject('/caf%C3%A9/label')).body, 'item café');
  const redirect = await a.inject('/7?x=1');
  assert.equal(redirect.statusCode, 302);
  assert.equal(redirect.headers['location'], '/7/?x=1');
  const missing = await a.inject({ url: '/missing/', headers: { accept: 'application/json' } });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().description, 'No such item');
  await a.close();
});

test('_lookup then _default are tried from the deepest controller outward', async () => {
  const calls: string[] = [];
  class Inner {
    @expose() index() { return 'inner'; }
    _lookup(segment: string, ...rest: string[]) {
      calls.push(`inner._lookup(${segment})`);
      return segment === 'deep' ? [new Item('deep'), rest] : undefined;
    }
  }
  class Middle {
    inner = new Inner();
    _default(...segments: string[]) {
      calls.push(`middle._default(${segments.join(',')})`);
      return `middle default ${segments.join('/')}`;
    }
  }
  class Root {
    middle = new Middle();
    @expose() index() { return 'root'; }
    _default(..._segments: string[]) { return 'root default'; }
  }
  const a = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/middle/inner/deep/label')).body, 'item deep');
  assert.equal((await a.inject('/middle/inner/x/y')).body, 'middle default inner/x/y');
  assert.deepEqual(calls, ['inner._lookup(deep)', 'inner._lookup(x)', 'middle._default(inner,x,y)']);
  assert.equal((await a.inject('/other/thing')).body, 'root default');
  await a.close();
});

test('_lookup is not called without a segment to consume; a _lookup returning a non-controller is 404', async () => {
  let calls = 0;
  class Root {
    items = new Map([['1', new Item('1')]]);
    _lookup(id: string, ...rest: string[]) {
      calls++;
      return [this.items.get(id), rest];
    }
  }
  const a = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/')).statusCode, 404);
  assert.equal(calls, 0);
  assert.equal((await a.inject('/1/label')).body, 'item 1');
  assert.equal((await a.inject('/2/label')).statusCode, 404);
  assert.equal(calls, 2);
  await a.close();
});

test('a _lookup returning the wrong shape is a 500 with a clear log line', async () => {
  const logged: string[] = [];
  class Root {
    @expose() index() { return 'root'; }
    _lookup() { return [new Item('x'), 'not-an-array']; }
  }
  const logger = { info() {}, warn() {}, error: (message: string, error: Error) => logged.push(`${message} ${error.message}`) };
  const a = createKernel({ root: new Root(), logger }).use(dispatchPlugin);
  assert.equal((await a.inject('/x/label')).statusCode, 500);
  assert.match(logged[0]!, /Root\._lookup\(\) returned an array: return \[controller, remainder\]/);
  await a.close();
});

test('_route replaces routing for its controller: a method target or a controller to continue in', async () => {
  const seen: Array<[string[], string]> = [];
  class Routed {
    @expose() show(id: string) { return `show ${id}`; }
    @expose() index() { return 'routed index'; }
    notExposed() { return 'no'; }
    _route(remainder: string[], request: Request) {
      seen.push([remainder, request.method]);
      const [first, ...rest] = remainder;
      if (first === 'item') return [new Item(rest[0]!), rest.slice(1)];
      if (first === 'bad') return [this.notExposed, rest];
      if (first === 'none') return undefined;
      if (first === 'loop') return [this, remainder];
      return [this.show, remainder];
    }
  }
  class Root {
    routed = new Routed();
    @expose() index() { return 'root'; }
  }
  const a = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/routed/42')).body, 'show 42');
  assert.equal((await a.inject('/routed/item/9/label')).body, 'item 9');
  assert.equal((await a.inject('/routed/')).body, 'routed index');
  assert.equal((await a.inject('/routed/none')).statusCode, 404);
  assert.equal((await a.inject('/routed/loop')).statusCode, 404);
  assert.equal((await a.inject('/routed/bad')).statusCode, 500);
  assert.deepEqual(seen[0], [['42'], 'GET']);
  await a.close();
});
