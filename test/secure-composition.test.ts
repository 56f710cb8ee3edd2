// How security checks compose (issue #30, items 6-8; Contract v3): an `@unlocked` `_lookup` on a
// SecureController, a method's own `@secure(check)` and a `secure(child, check)` attribute checked
// by that check alone (a name resolved on the holder), and a `_route` that hands over another
// controller's method. Each allowed case sits next to its refused one, with the checks that ran.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createApp, expose, routeTo, type Request } from '@hickory/app';
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

// Secured controllers whose methods tell which instance ran them (`this`).
class Vaulted extends SecureController {
  static override check_permissions(request: Request) {
    log.push('vaulted');
    return says(request, 'vaulted');
  }
  constructor(readonly name: string) { super(); }
  @expose() index() { return `vaulted ${this.name}`; }
}

class Locker extends SecureController {
  static override check_permissions(request: Request) {
    log.push('locker');
    return says(request, 'locker');
  }
  @expose() index() { return 'locker'; }
}

// Held by no controller of the tree: reachable only through a _route.
class Archive extends SecureController {
  static override check_permissions(request: Request) {
    log.push('archive');
    return says(request, 'archive');
  }
  readonly name = 'the archive';
  @expose() index() { return `index of ${this.name}`; }
}

class Note {
  constructor(readonly name: string) {}
  @expose() whoami() { return `I am ${this.name}`; }
}

class Memo {
  constructor(readonly name: string) {}
  @expose() whoami() { return `memo ${this.name}`; }
}

class Twin {
  constructor(readonly name: string) {}
  @expose() whoami() { return `twin ${this.name}`; }
}

class Shelf {
  vaulted = new Vaulted('on the shelf');
  // Refuses with 403 rather than 401: the check's own abort passes through.
  forbidden = secure(new Note('forbidden'), (request: Request) => {
    log.push('forbidden');
    return says(request, 'forbidden') || abort(403, 'not yours');
  });
}

class Cabinet { locker = new Locker(); }
class Drawer { memo = new Memo('in the drawer'); }
class Twins { left = new Twin('left'); right = new Twin('right'); }

const archive = new Archive();
const outsider = secure(new Note('outsider'), (request: Request) => {
  log.push('outsider');
  return says(request, 'outsider');
});

class Deeper {
  shelf = new Shelf();
  drawer = new Drawer();
  twins = new Twins();
  guarded = secure(new Cabinet(), (request: Request) => {
    log.push('guarded');
    return says(request, 'guarded');
  });
  _route(remainder: string[]) {
    log.push('route');
    const [first, ...rest] = remainder;
    if (first === 'grandchild') return [this.shelf.vaulted.index, rest];
    if (first === 'forbidden') return [this.shelf.forbidden.whoami, rest];
    if (first === 'guarded') return [this.guarded.locker.index, rest];
    if (first === 'plain') return [this.drawer.memo.whoami, rest];
    if (first === 'behind') return [routeTo(this.guarded.locker, 'index'), rest];
    if (first === 'archive') return [routeTo(archive, 'index'), rest];
    if (first === 'outsider') return [routeTo(outsider, 'whoami'), rest];
    if (first === 'unbound') return [archive.index, rest];
    if (first === 'twin') return [this.twins.left.whoami, rest];
    return undefined;
  }
}

class Root {
  deeper = new Deeper();
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

test("item 8: a _route that returns a grandchild's method runs it on that grandchild, behind every check on the way", async () => {
  // The grandchild's SecureController: 401 refused, 200 allowed, `this` the grandchild.
  assert.deepEqual(await get('/deeper/grandchild'), [401, '', ['route', 'vaulted']]);
  assert.deepEqual(await get('/deeper/grandchild', 'vaulted'), [200, 'vaulted on the shelf', ['route', 'vaulted']]);
  // A secure(child, check) whose check aborts 403.
  assert.deepEqual(await get('/deeper/forbidden'), [403, '', ['route', 'forbidden']]);
  assert.deepEqual(await get('/deeper/forbidden', 'forbidden'), [200, 'I am forbidden', ['route', 'forbidden']]);
  // Each secured controller on the way checks, outermost first, as if the path had named them.
  assert.deepEqual(await get('/deeper/guarded', 'locker'), [401, '', ['route', 'guarded']]);
  assert.deepEqual(await get('/deeper/guarded', 'guarded'), [401, '', ['route', 'guarded', 'locker']]);
  assert.deepEqual(await get('/deeper/guarded', 'guarded', 'locker'), [200, 'locker', ['route', 'guarded', 'locker']]);
  // routeTo() to a controller under the router: the same path, the same checks.
  assert.deepEqual(await get('/deeper/behind', 'locker'), [401, '', ['route', 'guarded']]);
  assert.deepEqual(await get('/deeper/behind', 'guarded', 'locker'), [200, 'locker', ['route', 'guarded', 'locker']]);
  // An unsecured grandchild: run on itself, nothing checked.
  assert.deepEqual(await get('/deeper/plain'), [200, 'memo in the drawer', ['route']]);
});

test('item 8: a method of a controller held elsewhere runs on it through routeTo(), behind its checks', async () => {
  assert.deepEqual(await get('/deeper/archive'), [401, '', ['route', 'archive']]);
  assert.deepEqual(await get('/deeper/archive', 'archive'), [200, 'index of the archive', ['route', 'archive']]);
  assert.deepEqual(await get('/deeper/outsider'), [401, '', ['route', 'outsider']]);
  assert.deepEqual(await get('/deeper/outsider', 'outsider'), [200, 'I am outsider', ['route', 'outsider']]);
});

test('item 8: an owner that cannot be told is refused, the method never run on the router', async () => {
  const errors: string[] = [];
  const strict = createApp({ root: new Root(), logger: { info() {}, warn() {}, error: (m: string, e?: unknown) => void errors.push(`${(e as { code?: string }).code}: ${(e as Error).message}`) } });
  const call = async (url: string) => {
    log.length = 0;
    const res = await strict.inject({ url, headers: { 'x-archive': 'yes' } });
    return [res.statusCode, [...log]];
  };
  // A method of a controller outside the tree, returned without routeTo().
  assert.deepEqual(await call('/deeper/unbound'), [500, ['route']]);
  // Two controllers under the router, equally near, hold it.
  assert.deepEqual(await call('/deeper/twin'), [500, ['route']]);
  assert.equal(errors.length, 2);
  assert.match(errors[0]!, /^HICKORY_ERR_DISPATCH_ROUTE_OWNER: Deeper\._route\(\) returned function index, a method of a controller that is not under it .*routeTo\(owner, 'name'\)/);
  assert.match(errors[1]!, /^HICKORY_ERR_DISPATCH_ROUTE_OWNER: Deeper\._route\(\) returned function whoami, a method that several controllers under it share \(twins\/left, twins\/right\)/);
  await strict.close();
});

test('item 8: routeTo() refuses what is not an exposed method of a controller, when called', () => {
  assert.throws(() => routeTo(archive, 'nothing' as 'index'), { code: 'HICKORY_ERR_DISPATCH_ROUTE_TO', message: /routeTo\(an object \(Archive\), "nothing"\): it has no method of that name/ });
  assert.throws(() => routeTo({ data: 1 } as unknown as Archive, 'index'), { code: 'HICKORY_ERR_DISPATCH_ROUTE_TO', message: /the owner is not a controller object/ });
  class Half { @expose() shown() { return ''; } hidden() { return ''; } }
  assert.throws(() => routeTo(new Half(), 'hidden'), { code: 'HICKORY_ERR_DISPATCH_ROUTE_TO', message: /that method is not exposed/ });
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
  assert.match(errors[0]!, /Shared\._route\(\) returned .*index.*, a method that several controllers under it share \(open, closed\)/);
  await shared.close();
});

test.after(() => app.close());
