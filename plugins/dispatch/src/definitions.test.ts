import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose, route, when } from '@hickory/dispatch';
import { exposureOf } from './exposure.ts';

test('expose() in every form records renderings, outermost first, as a decorator and as a plain call', () => {
  const plain = expose()(function plain() { return ''; });
  assert.deepEqual(exposureOf(plain)?.renderings.map((r) => r.contentType), ['text/html']);
  const stacked = expose('json')(expose('page.ejs', { content_type: 'text/plain' })(function stacked() { return {}; }));
  assert.deepEqual(exposureOf(stacked)?.renderings.map((r) => [r.template, r.contentType]), [['json', 'application/json'], ['page.ejs', 'text/plain']]);
  class Decorated {
    @expose('json') @expose({ template: 'x.ejs', route: 'x-y', generic: true }) m() { return {}; }
  }
  const exposure = exposureOf(Decorated.prototype.m)!;
  assert.deepEqual(exposure.renderings.map((r) => r.template), ['json', 'x.ejs']);
  assert.equal(exposure.route, 'x-y');
  assert.equal(exposure.generic, true);
  assert.equal(exposureOf(function notExposed() {}), undefined);
});

test('misused decorators fail when the class is defined, with a clear message', () => {
  assert.throws(() => expose({ contentType: 'text/plain' } as never), /unknown option "contentType"/);
  assert.throws(() => expose(''), /the template must be a non-empty string/);
  assert.throws(() => expose('json', { template: 'x.ejs' }), /the template is given twice/);
  assert.throws(() => expose({ content_type: 'plain' }), /is not a media type/);
  assert.throws(() => expose({ route: 'a/b' }), /Invalid route segment "a\/b"/);
  assert.throws(() => expose()(42 as never), /@expose on number 42: it decorates public instance methods only \(this is not a function\)/);
  assert.throws(() => {
    class Field {
      // @ts-expect-error a field is not a method
      @expose() value = 1;
    }
    return Field;
  }, /@expose on value: it decorates public instance methods only \(this is a field\)/);
  assert.throws(() => {
    class Static {
      @expose() static s() { return ''; }
    }
    return Static;
  }, /static method/);
  assert.throws(() => {
    class Private {
      @expose() #p() { return ''; }
    }
    return Private;
  }, /private method/);
  assert.throws(() => {
    class Generic {
      @expose({ generic: true }) _lookup() { return undefined; }
    }
    return Generic;
  }, /_lookup is a special method .* cannot be generic/);
  assert.throws(() => when('items', { method: 'NOT A METHOD' }), /`method` must be an HTTP method name/);
  assert.throws(() => when('_default', { method: 'POST' }), /cannot be generic/);
  assert.throws(() => expose({ route: 'a' })(expose({ route: 'b' })(function twice() {})), /already answers at route "b"; it cannot also answer at "a"/);
});

test('route(segment, fn) validates the segment and needs an exposed function', () => {
  for (const bad of ['', '.', '..', 'a/b', 'a b', '_hidden', 'constructor', '__proto__', 'toString']) {
    assert.throws(() => route(bad, expose()(function f() {})), /Invalid route segment/, bad);
  }
  assert.throws(() => route('ok', function notExposed() {}), /is not exposed: expose it first/);
  const fn = route('best-sellers', expose()(function bestsellers() { return ''; }));
  assert.equal(exposureOf(fn)?.route, 'best-sellers');
});

test('route(Class, segment, target) validates its arguments and collisions at definition time', () => {
  class Child {
    @expose() index() { return 'child'; }
  }
  class Root {
    @expose() index() { return 'root'; }
    @expose() about() { return 'about'; }
  }
  assert.throws(() => route(Root, 'about', new Child()), /Segment "about" of class Root is claimed twice \(member "about" and route\(\)\)/);
  assert.throws(() => route(Root, 'x', function plain() {}), /is not exposed/);
  assert.throws(() => route(Root, 'x', 'text' as never), /the target must be a controller instance or an exposed function/);
  assert.throws(() => (route as Function)(Root, 'x'), /takes three arguments/);
  assert.throws(() => (route as Function)(42, 'x', new Child()), /the first argument is a segment string or a controller class/);
  route(Root, 'some-path', new Child());
  assert.throws(() => route(Root, 'some-path', new Child()), /claimed twice \(an earlier route\(\) and route\(\)\)/);
});

test('route(Class, …) after the class was first routed is an error, not a silently ignored mount', async () => {
  class Child {
    @expose() index() { return 'child'; }
  }
  class Root {
    @expose() index() { return 'root'; }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await app.inject('/')).body, 'root');
  assert.throws(() => route(Root, 'late', new Child()), /route\(class Root, "late", …\) came after class Root was first routed/);
  assert.equal((await app.inject('/late/')).statusCode, 404);
  await app.close();
});

test('explicit routes answer only at their segment; mounts serve children and methods', async () => {
  class Child {
    @expose() index() { return 'child index'; }
    @expose() child() { return 'child.child'; }
  }
  class Root {
    @expose() index() { return 'root'; }
    @expose({ route: 'best-sellers' }) bestsellers() { return 'best'; }
  }
  route(Root, 'some-path', new Child());
  route(Root, 'plain-fn', expose('json')(function plainFn(this: unknown) { return { self: this instanceof Root }; }));
  const a = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  assert.equal((await a.inject('/best-sellers')).body, 'best');
  assert.equal((await a.inject('/bestsellers')).statusCode, 404);
  assert.equal((await a.inject('/some-path/child/')).body, 'child.child');
  assert.equal((await a.inject('/some-path/')).body, 'child index');
  assert.equal((await a.inject('/plain-fn')).body, '{"self":true}');
  await a.close();
});

test('collisions only visible in the whole class fail at ready()', async () => {
  class Clash {
    @expose({ route: 'same' }) a() { return 'a'; }
    @expose({ route: 'same' }) b() { return 'b'; }
  }
  await assert.rejects(
    createKernel({ root: new Clash(), logger: false }).use(dispatchPlugin).ready(),
    /Segment "same" of Clash is claimed twice \(method "a" and method "b"\)/,
  );
  class Shadow {
    @expose({ route: 'other' }) a() { return 'a'; }
    other() { return 'member'; }
  }
  await assert.rejects(createKernel({ root: new Shadow(), logger: false }).use(dispatchPlugin).ready(), /Segment "other" of Shadow is claimed twice \(member "other"/);
  class Mounted {
    @expose() index() { return ''; }
  }
  route(Mounted, 'kid', new Mounted());
  class Holder extends Mounted {
    kid = new Mounted();
  }
  await assert.rejects(createKernel({ root: new Holder(), logger: false }).use(dispatchPlugin).ready(), /Segment "kid" of Holder is claimed twice/);
  const plainGeneric = { _default: expose({ generic: true })(function _default() {}) };
  await assert.rejects(createKernel({ root: plainGeneric, logger: false }).use(dispatchPlugin).ready(), /_default is a special method/);
});

test('a decorator compiled the legacy way (experimentalDecorators) names that setting', () => {
  class Books {
    index() { return 'books'; }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Books.prototype, 'index')!;
  // What TypeScript emits under "experimentalDecorators": true: (prototype, name, descriptor).
  const legacy = (marker: unknown) => (marker as (target: object, key: string, d: PropertyDescriptor) => unknown)(Books.prototype, 'index', descriptor);
  const message = /^@expose on Books\.index was called as a legacy decorator \(target, name, descriptor\), as TypeScript compiles decorators under "experimentalDecorators": true\. .*remove experimentalDecorators/;
  assert.throws(() => legacy(expose('json')), { code: 'HICKORY_ERR_DISPATCH_LEGACY_DECORATOR', message });
  assert.throws(() => legacy(when('index', { method: 'POST' })), { code: 'HICKORY_ERR_DISPATCH_LEGACY_DECORATOR', message: /^@when on Books\.index/ });
});
