import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel, type Request } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { guard, openGuards } from '@hickory/dispatch/kit';
import { guardsDeclared } from './guards.ts';

const log: string[] = [];
const refuse = (name: string) => (_controller: object, request: Request) => {
  log.push(name);
  if (request.headers['x-pass'] !== 'yes') abort(401);
};

class Panel {
  @expose() index() { log.push('handler'); return 'panel'; }
  @expose() open() { log.push('handler'); return 'open'; }
}

// First in this file: no guard exists yet when the request starts routing.
test('a guard declared by the _lookup that makes the first guarded object still runs for that request', async () => {
  assert.equal(guardsDeclared(), false);
  class Root {
    _lookup(name: string, ...rest: string[]) {
      const panel = new Panel();
      guard(panel, refuse(`${name} check`));
      return [panel, rest];
    }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  log.length = 0;
  assert.equal((await app.inject('/first/')).statusCode, 401);
  assert.deepEqual(log, ['first check']);
  assert.equal(guardsDeclared(), true);
  await app.close();
});

test('class guards cover subclasses (base first), an object guard its object; opened objects and methods skip the guards above', async () => {
  class Base { @expose() index() { log.push('handler'); return 'base'; } }
  class Derived extends Base {}
  guard(Base, refuse('base'));
  guard(Derived, refuse('derived'));
  const open = new Panel();
  openGuards(open);
  openGuards(Panel.prototype.open);
  class Holder extends Base {
    open = open;
    panel = new Panel();
  }
  class Root {
    derived = new Derived();
    holder = new Holder();
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  const cases: Array<[string, Record<string, string>, number, string[]]> = [
    ['/derived/', {}, 401, ['base']],
    ['/derived/', { 'x-pass': 'yes' }, 200, ['base', 'derived', 'handler']],
    ['/holder/open/', {}, 200, ['handler']],
    ['/holder/panel/open', {}, 200, ['handler']],
    ['/holder/panel/', {}, 401, ['base']],
  ];
  for (const [url, headers, status, ran] of cases) {
    log.length = 0;
    assert.equal((await app.inject({ url, headers })).statusCode, status, url);
    assert.deepEqual(log, ran, url);
  }
  await app.close();
});

test('the route map marks what a guard checks: below a guarded controller, guarded methods, not what is opened', async () => {
  const { routeMap } = await import('@hickory/dispatch');
  class Help { @expose() index() { return 'help'; } }
  class Zone {
    help = new Help();
    @expose() index() { return 'zone'; }
    @expose() login() { return 'login'; }
  }
  class Root {
    zone = new Zone();
    @expose() index() { return 'home'; }
    @expose() secret() { return 'secret'; }
  }
  const root = new Root();
  guard(Zone, () => undefined);
  openGuards(root.zone.help);
  openGuards(Zone.prototype.login);
  guard(Root.prototype.secret, () => undefined);
  const marked = routeMap(root).filter((r) => r.secured).map((r) => r.path);
  assert.deepEqual(marked, ['/secret', '/zone/', '/zone/index']);
});
