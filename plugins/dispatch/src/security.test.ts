import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';

const PROTOTYPE_NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), '__proto__'])];

function snapshot() {
  return {
    object: Object.getOwnPropertyNames(Object.prototype).join(','),
    fn: Object.getOwnPropertyNames(Function.prototype).join(','),
    probe: ({} as Record<string, unknown>)['polluted'],
  };
}

function tree() {
  const ran: string[] = [];
  class Leaf {
    @expose() index() { ran.push('leaf.index'); return 'leaf'; }
    @expose() hello() { ran.push('leaf.hello'); return 'hi'; }
    helper() { ran.push('leaf.helper'); return 'helper'; }
    _private() { ran.push('leaf._private'); return 'private'; }
    get trap() { ran.push('leaf.trap'); return new Leaf(); }
  }
  class Root {
    child = new Leaf();
    @expose() index() { ran.push('root.index'); return 'root'; }
    @expose() echo(value: string) { return `[${value}]`; }
    notExposed() { ran.push('root.notExposed'); return 'no'; }
    _private() { ran.push('root._private'); return 'private'; }
    get secret() { ran.push('root.secret'); return new Leaf(); }
  }
  return { root: new Root(), ran, Leaf };
}

test('every Object.prototype and Function.prototype name is 404 at the root, below a child and after a _lookup', async () => {
  const before = snapshot();
  const { root, ran, Leaf } = tree();
  const lookups: string[][] = [];
  class LookupRoot {
    @expose() index() { return 'lookup root'; }
    _lookup(first: string, ...rest: string[]) {
      lookups.push([first, ...rest]);
      return first === 'dyn' ? [new Leaf(), rest] : undefined;
    }
  }
  const app = createKernel({ root, logger: false }).use(dispatchPlugin);
  const dynamic = createKernel({ root: new LookupRoot(), logger: false }).use(dispatchPlugin);
  for (const name of PROTOTYPE_NAMES) {
    for (const url of [`/${name}`, `/${name}/`, `/child/${name}`, `/child/${name}/x`]) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 404, url);
    }
    const res = await dynamic.inject(`/dyn/${name}`);
    assert.equal(res.statusCode, 404, `/dyn/${name}`);
  }
  assert.deepEqual(ran, []);
  assert.equal(lookups.length, PROTOTYPE_NAMES.length);
  assert.deepEqual(snapshot(), before);
  assert.equal((await app.inject('/')).body, 'root');
  assert.equal((await dynamic.inject('/dyn/hello')).body, 'hi');
  await app.close();
  await dynamic.close();
});

test('prototype chains, private names, special methods, getters and plain methods are not reachable', async () => {
  const before = snapshot();
  const { root, ran } = tree();
  const app = createKernel({ root, logger: false }).use(dispatchPlugin);
  for (const url of [
    '/constructor/constructor',
    '/constructor/prototype',
    '/__proto__/x',
    '/__proto__/__proto__/hello',
    '/_private',
    '/child/_private',
    '/_lookup/x',
    '/_default',
    '/_route',
    '/secret',
    '/secret/hello',
    '/child/trap',
    '/child/trap/hello',
    '/notExposed',
    '/child/helper',
    '/child/hello/constructor',
    '/child/hello/__proto__',
  ]) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 404, url);
  }
  assert.deepEqual(ran, []);
  assert.deepEqual(snapshot(), before);
  await app.close();
});

test('_lookup, _default and _route are called as fallbacks with the segment as data, never addressed', async () => {
  const seen: string[][] = [];
  class Root {
    @expose() index() { return 'root'; }
    _lookup(...segments: string[]) {
      seen.push(segments);
      return undefined;
    }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await app.inject('/_lookup/x')).statusCode, 404);
  assert.equal((await app.inject('/_route/x')).statusCode, 404);
  assert.deepEqual(seen, [['_lookup', 'x'], ['_route', 'x']]);
  await app.close();
});

test('encoded dots, slashes and backslashes stay data inside one segment', async () => {
  const { root, ran } = tree();
  const app = createKernel({ root, logger: false }).use(dispatchPlugin);
  assert.equal((await app.inject('/echo/a%2Fb')).body, '[a/b]');
  // (Dot segments such as %2E%2E are checked through a real socket: inject() normalizes its URL.)
  assert.equal((await app.inject('/echo/..%2F..%2Fetc%2Fpasswd')).body, '[../../etc/passwd]');
  assert.equal((await app.inject('/echo/a%5Cb')).body, '[a\\b]');
  for (const url of ['/child%2Fhello', '/child/%2E%2E%2Fhello', '/child/hello%2F', '/child%5Chello', '/child/..%5Chello']) {
    assert.equal((await app.inject(url)).statusCode, 404, url);
  }
  assert.deepEqual(ran, []);
  await app.close();
});

test('NUL and malformed escapes are 400; too many or too long segments are 414', async () => {
  const { root, ran } = tree();
  const app = createKernel({ root, logger: false }).use(dispatchPlugin);
  for (const url of ['/echo/%00', '/echo/a%00b', '/%zz', '/echo/%', '/echo/%E0%A4%A', '/echo/%C3%28', '/child/%G0']) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 400, url);
  }
  assert.equal((await app.inject(`/${'a/'.repeat(64)}a`)).statusCode, 414);
  assert.equal((await app.inject(`/${'a/'.repeat(63)}a`)).statusCode, 404);
  assert.equal((await app.inject(`/echo/${'x'.repeat(1025)}`)).statusCode, 414);
  assert.equal((await app.inject(`/echo/${'%C3%A9'.repeat(513)}`)).statusCode, 414);
  assert.equal((await app.inject(`/echo/${'x'.repeat(1024)}`)).statusCode, 200);
  assert.deepEqual(ran, []);
  assert.equal((await app.inject('/')).statusCode, 200);
  await app.close();
});

test('a _lookup that returns itself without consuming is 404, and lookups stop after 16 hops', async () => {
  let calls = 0;
  class SelfLookup {
    _lookup(...rest: string[]) {
      calls++;
      return [this, rest];
    }
  }
  class Chain {
    @expose() index() { return 'end'; }
    _lookup(_step: string, ...rest: string[]) {
      calls++;
      return [new Chain(), rest];
    }
  }
  const loop = createKernel({ root: new SelfLookup(), logger: false }).use(dispatchPlugin);
  assert.equal((await loop.inject('/a/b')).statusCode, 404);
  assert.equal(calls, 1);
  const chain = createKernel({ root: new Chain(), logger: false }).use(dispatchPlugin);
  calls = 0;
  assert.equal((await chain.inject(`/${'x/'.repeat(16)}`)).body, 'end');
  assert.equal(calls, 16);
  calls = 0;
  assert.equal((await chain.inject(`/${'x/'.repeat(17)}`)).statusCode, 404);
  assert.equal(calls, 16);
  await loop.close();
  await chain.close();
});

test('a throwing _lookup is a generic 500 that reveals nothing, and the app keeps serving', async () => {
  const logged: unknown[] = [];
  class Root {
    @expose() index() { return 'ok'; }
    _lookup() {
      throw new Error('database password is hunter2');
    }
  }
  const logger = { info() {}, warn() {}, error: (...args: unknown[]) => logged.push(args) };
  const app = createKernel({ root: new Root(), logger }).use(dispatchPlugin);
  const res = await app.inject('/anything');
  assert.equal(res.statusCode, 500);
  assert.doesNotMatch(res.body, /hunter2/);
  assert.equal(logged.length, 1);
  assert.equal((await app.inject('/')).body, 'ok');
  await app.close();
});

test('only controller objects are entered: data properties, arrays and proxies are not', async () => {
  let trapped = 0;
  class Leaf {
    @expose() hello() { return 'hi'; }
  }
  const proxy = new Proxy(new Leaf(), {
    getOwnPropertyDescriptor(target, key) {
      trapped++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  class Root {
    @expose() index() { return 'root'; }
    data = { hello: expose()(() => 'data') };
    list = [new Leaf()];
    proxied = proxy;
    leaf = new Leaf();
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await app.inject('/leaf/hello')).body, 'hi');
  assert.equal((await app.inject('/data/hello')).body, 'data'); // an object holding an exposed function is a controller
  assert.equal((await app.inject('/list/0/hello')).statusCode, 404);
  assert.equal((await app.inject('/list/length')).statusCode, 404);
  assert.equal((await app.inject('/proxied/hello')).statusCode, 404);
  assert.equal(trapped, 0);
  await app.close();
});
