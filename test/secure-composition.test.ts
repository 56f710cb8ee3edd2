// How security checks compose (issue #30, items 6-8; Contract v3): an `@unlocked` `_lookup` on a
// SecureController, a method's own `@secure(check)` and a `secure(child, check)` attribute checked
// by that check alone (a name resolved on the holder), and a `_route` that hands over another
// controller's method. Each allowed case sits next to its refused one, with the checks that ran.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, expose, type Request } from '@hickory/app';
import { secure, SecureController, unlocked } from '@hickory/hooks';

const log: string[] = [];
const says = (request: Request, name: string) => request.headers[`x-${name}`] === 'yes';

class Item {
  constructor(readonly id: string) {}
  @expose() index() { return `item ${this.id}`; }
}

class Locked extends SecureController {
  static override check_permissions(request: Request) {
    log.push('locked');
    return says(request, 'locked');
  }
  constructor(readonly id: string) { super(); }
  @expose() index() { return `locked ${this.id}`; }
}

class Deep extends SecureController {
  static override check_permissions(request: Request) {
    log.push('deep');
    return says(request, 'deep');
  }
  @expose() index() { return 'deep index'; }
  @expose() report() { return 'deep report'; }
  @unlocked _lookup(id: string, ...rest: string[]) {
    log.push('lookup');
    if (id === 'notfound') return undefined;
    return [id.startsWith('locked') ? new Locked(id) : new Item(id), rest];
  }
}

class DeepWithDefault extends Deep {
  _default(...rest: string[]) { return `default ${rest.join('/')}`; }
}

class Secret extends SecureController {
  static override check_permissions(request: Request) {
    log.push('secret');
    return says(request, 'secret');
  }
  readonly name = 'the secret';
  wrapped = secure(new Item('wrapped'), 'independent_check');
  independent_check(request: Request) {
    log.push(`independent on ${this.name}`);
    return says(request, 'independent');
  }
  @expose() index() { return `index of ${this.name}`; }
  @secure('independent_check') @expose() independent() { return 'independent'; }
  @secure((request: Request) => {
    log.push('own');
    return says(request, 'own');
  })
  @expose()
  own() { return 'own'; }
  _lookup(id: string, ...rest: string[]) {
    log.push('lookup');
    return id === 'lookup_wrapped' ? [this.wrapped, rest] : [new Item(id), rest];
  }
}

class Outer extends SecureController {
  static override check_permissions(request: Request) {
    log.push('outer');
    return says(request, 'outer');
  }
  inner = new Secret();
  deep = new Deep();
}

class Plain {
  constructor(readonly id: string) {}
  @expose() index() { return `plain ${this.id}`; }
}

class Delegate {
  secret = new Secret();
  vault = secure(new Item('vault'), (request: Request) => {
    log.push('vault');
    return says(request, 'vault');
  });
  plain = new Plain('child');
  @expose() mine() { return 'mine'; }
  _route(remainder: string[]) {
    log.push('route');
    if (remainder[0] === 'vault') return [this.vault.index, remainder.slice(1)];
    if (remainder[0] === 'plain') return [this.plain.index, remainder.slice(1)];
    if (remainder[0] === 'mine') return [this.mine, remainder.slice(1)];
    return [this.secret.index, remainder];
  }
}

class Root {
  deep = new Deep();
  withdefault = new DeepWithDefault();
  secret = new Secret();
  outer = new Outer();
  delegate = new Delegate();
  plainwrapped = secure(new Item('plain wrapped'), 'allow');
  allow(request: Request) {
    log.push('root allow');
    return says(request, 'allow');
  }
}

const app = createApp({ root: new Root(), logger: false });

// One request: its status, its body, and the checks (and lookups/routes) that ran, in order.
async function get(url: string, ...yes: string[]): Promise<[number, string, string[]]> {
  log.length = 0;
  const headers = Object.fromEntries(yes.map((name) => [`x-${name}`, 'yes']));
  const res = await app.inject({ url, headers });
  return [res.statusCode, res.statusCode === 200 ? res.body : '', [...log]];
}

test('item 6: an @unlocked _lookup on a SecureController runs without its check; what it returns keeps its own', async () => {
  assert.deepEqual(await get('/deep/7/'), [200, 'item 7', ['lookup']]);
  assert.deepEqual(await get('/deep/7/', 'deep'), [200, 'item 7', ['lookup']]);
  // The controller's own members stay checked.
  assert.deepEqual(await get('/deep/'), [401, '', ['deep']]);
  assert.deepEqual(await get('/deep/', 'deep'), [200, 'deep index', ['deep']]);
  assert.deepEqual(await get('/deep/report'), [401, '', ['deep']]);
  // A secured controller returned by the lookup checks itself.
  assert.deepEqual(await get('/deep/locked1/'), [401, '', ['lookup', 'locked']]);
  assert.deepEqual(await get('/deep/locked1/', 'locked'), [200, 'locked locked1', ['lookup', 'locked']]);
  // Found nothing: a dead end below the controller, so its check decides (401 refused, 404 allowed).
  assert.deepEqual(await get('/deep/notfound/'), [401, '', ['lookup', 'deep']]);
  assert.deepEqual(await get('/deep/notfound/', 'deep'), [404, '', ['lookup', 'deep']]);
  // Its _default, tried after the lookup found nothing, is the controller's own: checked.
  assert.deepEqual(await get('/withdefault/notfound/x'), [401, '', ['lookup', 'deep']]);
  assert.deepEqual(await get('/withdefault/notfound/x', 'deep'), [200, 'default notfound/x', ['lookup', 'deep']]);
  assert.deepEqual(await get('/withdefault/7/', 'deep'), [200, 'item 7', ['lookup']]);
  // As an @unlocked method: the secured controllers above do not apply to what it returns either.
  assert.deepEqual(await get('/outer/deep/7/'), [200, 'item 7', ['lookup']]);
  assert.deepEqual(await get('/outer/deep/'), [401, '', ['outer']]);
  assert.deepEqual(await get('/outer/deep/', 'outer', 'deep'), [200, 'deep index', ['outer', 'deep']]);
});

test("item 7: a method's own @secure inside a SecureController is checked by that check alone", async () => {
  assert.deepEqual(await get('/secret/independent', 'independent'), [200, 'independent', ['independent on the secret']]);
  assert.deepEqual(await get('/secret/independent', 'secret'), [401, '', ['independent on the secret']]);
  assert.deepEqual(await get('/secret/independent'), [401, '', ['independent on the secret']]);
  assert.deepEqual(await get('/secret/own', 'own'), [200, 'own', ['own']]);
  assert.deepEqual(await get('/secret/own', 'secret'), [401, '', ['own']]);
  // The other methods keep the class's check.
  assert.deepEqual(await get('/secret/', 'independent', 'own'), [401, '', ['secret']]);
  assert.deepEqual(await get('/secret/', 'secret'), [200, 'index of the secret', ['secret']]);
  // A secured controller above still checks, first.
  assert.deepEqual(await get('/outer/inner/independent', 'independent'), [401, '', ['outer']]);
  assert.deepEqual(await get('/outer/inner/independent', 'outer', 'independent'), [200, 'independent', ['outer', 'independent on the secret']]);
});

test('item 7: a secure(child, name) attribute is checked by that check alone, the name resolved on its holder', async () => {
  assert.deepEqual(await get('/secret/wrapped/', 'independent'), [200, 'item wrapped', ['independent on the secret']]);
  assert.deepEqual(await get('/secret/wrapped/', 'secret'), [401, '', ['independent on the secret']]);
  assert.deepEqual(await get('/secret/wrapped/'), [401, '', ['independent on the secret']]);
  // Reached through the holder's _lookup: the holder's check comes first (its _lookup is its own), then the child's.
  assert.deepEqual(await get('/secret/lookup_wrapped/', 'independent'), [401, '', ['secret']]);
  assert.deepEqual(await get('/secret/lookup_wrapped/', 'secret'), [401, '', ['secret', 'lookup', 'independent on the secret']]);
  assert.deepEqual(await get('/secret/lookup_wrapped/', 'secret', 'independent'), [200, 'item wrapped', ['secret', 'lookup', 'independent on the secret']]);
  // A holder that is not secured: the name is its method.
  assert.deepEqual(await get('/plainwrapped/', 'allow'), [200, 'item plain wrapped', ['root allow']]);
  assert.deepEqual(await get('/plainwrapped/'), [401, '', ['root allow']]);
  // Under a secured controller above the holder, that one still checks.
  assert.deepEqual(await get('/outer/inner/wrapped/', 'independent'), [401, '', ['outer']]);
  assert.deepEqual(await get('/outer/inner/wrapped/', 'outer', 'independent'), [200, 'item wrapped', ['outer', 'independent on the secret']]);
});

test("item 8: a _route that returns another controller's method applies that controller's checks", async () => {
  assert.deepEqual(await get('/delegate/'), [401, '', ['route', 'secret']]);
  assert.deepEqual(await get('/delegate/', 'secret'), [200, 'index of the secret', ['route', 'secret']]);
  assert.deepEqual(await get('/delegate/vault'), [401, '', ['route', 'vault']]);
  assert.deepEqual(await get('/delegate/vault', 'vault'), [200, 'item vault', ['route', 'vault']]);
  // Unsecured targets: called on their own controller, nothing checked.
  assert.deepEqual(await get('/delegate/plain'), [200, 'plain child', ['route']]);
  assert.deepEqual(await get('/delegate/mine'), [200, 'mine', ['route']]);
});

test('item 8: a _route that returns a method several children share is an error naming them, not a guess', async () => {
  class Shared {
    open = new Item('open');
    closed = secure(new Item('closed'), () => false);
    _route(remainder: string[]) { return [this.open.index, remainder]; }
  }
  const errors: string[] = [];
  const shared = createApp({ root: { shared: new Shared() }, logger: { info() {}, warn() {}, error: (m: string, e?: unknown) => void errors.push(`${m}: ${(e as Error).message}`) } });
  assert.equal((await shared.inject('/shared/')).statusCode, 500);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /Shared\._route\(\) returned .*index.*, a method that several of its children share \(open, closed\)/);
  await shared.close();
});

test.after(() => app.close());
