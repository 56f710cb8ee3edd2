// Issue 39: Pecan applications as they are written. OpenStack Ironic's chassis API and Barbican's
// RBAC decorator, translated line for line (decorators, root lookup, hooks, error middleware), each
// asserting the status, body and headers Ironic's own tests assert.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, definePlugin, request, response, type Variables } from '@hickory/core';
import { expose, parameterIndex, wraps } from '@hickory/dispatch';
import { Hook, type HookState } from '@hickory/hooks';
import { RestController } from '@hickory/rest';
import { createApp } from '@hickory/app';

// ---- ironic/api/method.py and ironic/api/controllers/v1/utils.py, as written ----

/** ironic.common.exception.IronicException: a `code` WebOb-style (`.code`), read by method.expose. */
class IronicException extends Error {
  code = 500;
}
class InvalidParameterValue extends IronicException {
  override code = 400;
}
class ChassisNotFound extends IronicException {
  override code = 404;
}
class Conflict extends IronicException {
  override code = 409;
}

type Method<This, A extends unknown[], R> = (this: This, ...args: A) => R;

/** `@method.expose(status_code)`: calls the function, turns any exception into Ironic's JSON fault with its `.code`. */
function methodExpose(statusCode?: number) {
  return <This, A extends unknown[], R>(f: Method<This, A, R>, context: ClassMethodDecoratorContext) => {
    const callfunction = wraps(f)(function (this: This, ...args: A): R {
      let result: unknown;
      try {
        result = f.apply(this, args);
        if (statusCode) response.status = statusCode;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        response.status_int = typeof code === 'number' && code >= 400 && code <= 599 ? code : 500;
        result = { faultstring: (error as Error).message, faultcode: response.status_int < 500 ? 'Client' : 'Server', debuginfo: null };
      }
      return (result === undefined ? '' : JSON.stringify(result)) as R;
    });
    return expose({ content_type: 'application/json' })(callfunction, context) as Method<This, A, R>;
  };
}

/** `@method.body('chassis')`: the JSON body as that argument; the body's keys leave kwargs. */
function methodBody(bodyArg: string) {
  return <This, A extends unknown[], R>(fn: Method<This, A, R>) =>
    wraps(fn, { supplies: [bodyArg], kwargs: true })(function (this: This, ...args) {
      const all = args as unknown[];
      const kwargs = all[all.length - 1] as Variables;
      const data: unknown = request.body.length > 0 ? request.json : {};
      if (data !== null && typeof data === 'object' && !Array.isArray(data)) for (const field of Object.keys(data)) delete kwargs[field];
      all[parameterIndex(fn, bodyArg)] = data;
      return fn.apply(this, all as A);
    });
}

/** `@args.validate(...)`: each named argument through its validator; unknown kwargs → "Unexpected arguments". */
function argsValidate(validators: Record<string, (name: string, value: unknown) => unknown>) {
  return <This, A extends unknown[], R>(fn: Method<This, A, R>) =>
    wraps(fn, { kwargs: true })(function (this: This, ...args) {
      const all = args as unknown[];
      const kwargs = all.pop() as Variables;
      const extra = Object.keys(kwargs).filter((key) => parameterIndex(fn, key) < 0);
      if (extra.length > 0) throw new InvalidParameterValue(`Unexpected arguments: ${extra.join(', ')}`);
      for (const name of Object.keys(validators)) {
        const index = parameterIndex(fn, name);
        if (index >= 0 && all[index] !== undefined) all[index] = validators[name]!(name, all[index]);
      }
      return fn.apply(this, all as A);
    });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const args = {
  uuid(name: string, value: unknown) {
    if (typeof value !== 'string' || !UUID.test(value)) throw new InvalidParameterValue(`Expected UUID for ${name}: ${String(value)}`);
    return value;
  },
  integer(name: string, value: unknown) {
    const n = Number(value);
    if (!Number.isInteger(n)) throw new InvalidParameterValue(`Expected an integer for ${name}: ${String(value)}`);
    return n;
  },
  schema(name: string, value: unknown) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidParameterValue(`Schema error for ${name}: not an object`);
    return value;
  },
  patch(name: string, value: unknown) {
    if (!Array.isArray(value) || !value.every((op) => typeof op === 'object' && op !== null && typeof op.op === 'string' && typeof op.path === 'string')) {
      throw new InvalidParameterValue(`Schema error for ${name}: not a JSON patch`);
    }
    return value;
  },
};

interface Chassis {
  uuid: string;
  description: string;
}

// ---- ironic/api/controllers/v1/chassis.py (the part its tests use) ----

class ChassisController extends RestController {
  constructor(private readonly db: Map<string, Chassis>) {
    super();
  }

  @methodExpose()
  @argsValidate({ limit: args.integer })
  get_all(limit: number | undefined = undefined) {
    const all = [...this.db.values()];
    return { chassis: limit === undefined ? all : all.slice(0, limit) };
  }

  @methodExpose()
  @argsValidate({ chassis_uuid: args.uuid })
  get_one(chassis_uuid: string) {
    return this.db.get(chassis_uuid) ?? abort(404, `Chassis ${chassis_uuid} could not be found.`);
  }

  @methodExpose(201)
  @methodBody('chassis')
  @argsValidate({ chassis: args.schema })
  post(chassis: Partial<Chassis>) {
    const created = { uuid: chassis.uuid ?? '1be26c0b-03f2-4d2e-ae87-c02d7f33c123', description: chassis.description ?? '' };
    if (this.db.has(created.uuid)) throw new Conflict(`A chassis with UUID ${created.uuid} already exists.`);
    this.db.set(created.uuid, created);
    response.location = `http://localhost/v1/chassis/${created.uuid}`;
    return created;
  }

  @methodExpose()
  @methodBody('patch')
  @argsValidate({ chassis_uuid: args.uuid, patch: args.patch })
  patch(chassis_uuid: string, patch: Array<{ op: string; path: string; value?: unknown }>) {
    const chassis = this.db.get(chassis_uuid);
    if (!chassis) throw new ChassisNotFound(`Chassis ${chassis_uuid} could not be found.`);
    for (const op of patch) if (op.op === 'replace' && op.path === '/description') chassis.description = String(op.value);
    return chassis;
  }
}

class V1 {
  constructor(readonly chassis: ChassisController) {}
  @expose('json') index() {
    return { id: 'v1' };
  }
}

// ironic/api/controllers/root.py: paths without the version go to v1 (its bookmark links).
class Root {
  constructor(private readonly v1: V1) {}
  @expose('json') index() {
    return { name: 'OpenStack Ironic API' };
  }
  @expose()
  _lookup(primary_key: string, ...remainder: string[]) {
    if (primary_key && primary_key !== 'v1') remainder = [primary_key, ...remainder];
    if (remainder.length > 0 && !remainder[remainder.length - 1]) remainder = remainder.slice(0, -1);
    return [this.v1, remainder];
  }
}

// ironic/api/hooks.py: cuts server tracebacks out of error messages.
class NoExceptionTracebackHook extends Hook {
  override after(state: HookState) {
    if (!state.response.body) return;
    if (state.response.status_int >= 200 && state.response.status_int < 400) return;
    const body = state.response.json as { faultstring?: string };
    const marker = 'Traceback (most recent call last):';
    if (body.faultstring?.includes(marker)) {
      body.faultstring = body.faultstring.split(marker, 1)[0]!.trimEnd();
      state.response.json = body;
    }
  }
}

// ironic/api/middleware/parsable_error.py, as a plugin: error bodies become {"error_message": "<body>"}.
const parsableErrors = definePlugin({
  name: 'parsable-errors',
  apply(kernel) {
    kernel.hooks.beforeSend.tap('parsable-errors', (_request, res) => {
      if (Math.floor(res.status_code / 100) === 2 || Math.floor(res.status_code / 100) === 3) return;
      const text = res.text;
      res.body = null;
      res.headers['Content-Type'] = 'application/json';
      res.json = { error_message: text };
    });
  },
});

const CHASSIS = 'eeeeeeee-dddd-cccc-bbbb-aaaaaaaaaaaa';

function ironic(root?: object) {
  const db = new Map<string, Chassis>([[CHASSIS, { uuid: CHASSIS, description: 'rack 1' }]]);
  const app = createApp({ root: root ?? new Root(new V1(new ChassisController(db))), logger: false, hooks: [new NoExceptionTracebackHook()] });
  app.use(parsableErrors);
  return { app, db };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

function fault(body: string): { faultstring: string; faultcode: string } {
  return JSON.parse((JSON.parse(body) as { error_message: string }).error_message);
}

test('gap 1: @method.expose over @method.body("chassis") over @args.validate: POST passes the JSON body as chassis, 201 with a Location', async () => {
  const { app, db } = ironic();
  try {
    const res = await app.inject({ method: 'POST', url: '/v1/chassis', headers: JSON_HEADERS, payload: '{"description":"rack 2","uuid":"11111111-2222-3333-4444-555555555555"}' });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['location'], 'http://localhost/v1/chassis/11111111-2222-3333-4444-555555555555');
    assert.deepEqual(res.json(), { uuid: '11111111-2222-3333-4444-555555555555', description: 'rack 2' });
    assert.equal(db.get('11111111-2222-3333-4444-555555555555')?.description, 'rack 2');
    // The same again: the handler's Conflict (code 409) is read by method.expose; the middleware wraps it.
    const again = await app.inject({ method: 'POST', url: '/v1/chassis', headers: JSON_HEADERS, payload: '{"uuid":"11111111-2222-3333-4444-555555555555"}' });
    assert.equal(again.statusCode, 409);
    assert.equal(fault(again.body).faultstring, 'A chassis with UUID 11111111-2222-3333-4444-555555555555 already exists.');
  } finally {
    await app.close();
  }
});

test('gap 1: args.validate receives the outer kwargs: ?foo=1 → 400 "Unexpected arguments: foo"; a known filter still works', async () => {
  const { app } = ironic();
  try {
    const bad = await app.inject({ url: '/v1/chassis?foo=1&limit=1', headers: { accept: 'application/json' } });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(fault(bad.body), { faultstring: 'Unexpected arguments: foo', faultcode: 'Client', debuginfo: null });
    const ok = await app.inject({ url: '/v1/chassis?limit=1', headers: { accept: 'application/json' } });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { chassis: [{ uuid: CHASSIS, description: 'rack 1' }] });
    const notInt = await app.inject({ url: '/v1/chassis?limit=x', headers: { accept: 'application/json' } });
    assert.equal(notInt.statusCode, 400);
    assert.equal(fault(notInt.body).faultstring, 'Expected an integer for limit: x');
  } finally {
    await app.close();
  }
});

test('gaps 1, 2: a JSON-Patch PATCH: the array body contributes no variables, method.body passes it as patch', async () => {
  const { app, db } = ironic();
  try {
    const payload = JSON.stringify([{ op: 'replace', path: '/description', value: 'rack 9' }]);
    const res = await app.inject({ method: 'PATCH', url: `/v1/chassis/${CHASSIS}`, headers: JSON_HEADERS, payload });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { uuid: CHASSIS, description: 'rack 9' });
    assert.equal(db.get(CHASSIS)?.description, 'rack 9');
    const missing = await app.inject({ method: 'PATCH', url: '/v1/chassis/00000000-0000-0000-0000-000000000000', headers: JSON_HEADERS, payload });
    assert.equal(missing.statusCode, 404);
    assert.equal(fault(missing.body).faultstring, 'Chassis 00000000-0000-0000-0000-000000000000 could not be found.');
  } finally {
    await app.close();
  }
});

test('gap 6: abort() inside a handler under method.expose keeps its status (HTTPError.code), not a 500', async () => {
  const { app } = ironic();
  try {
    const missing = await app.inject({ url: '/v1/chassis/00000000-0000-0000-0000-000000000000', headers: { accept: 'application/json' } });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(fault(missing.body), { faultstring: '404 Not Found: Chassis 00000000-0000-0000-0000-000000000000 could not be found.', faultcode: 'Client', debuginfo: null });
    const notUuid = await app.inject({ url: '/v1/chassis/nope', headers: { accept: 'application/json' } });
    assert.equal(notUuid.statusCode, 400);
    assert.equal(fault(notUuid.body).faultstring, 'Expected UUID for chassis_uuid: nope');
  } finally {
    await app.close();
  }
});

test('gap 2: a handler that maps no body variable reads a JSON-Patch array from request.json; a missing parameter is still a 400', async () => {
  class Root {
    @expose('json') patch(id: string) {
      return { id, ops: request.json };
    }
    @expose('json') named(name: string) {
      return { name };
    }
  }
  const app = createApp({ root: new Root(), logger: false });
  try {
    const res = await app.inject({ method: 'PATCH', url: '/patch/7', headers: JSON_HEADERS, payload: '[{"op":"remove","path":"/a"}]' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { id: '7', ops: [{ op: 'remove', path: '/a' }] });
    const missing = await app.inject({ method: 'PATCH', url: '/named', headers: JSON_HEADERS, payload: '[1]' });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().description, 'Missing required parameter "name".');
    const broken = await app.inject({ method: 'PATCH', url: '/patch/7', headers: JSON_HEADERS, payload: '[1,' });
    assert.equal(broken.statusCode, 400);
  } finally {
    await app.close();
  }
});

test('gap 3: Ironic root _lookup: /chassis/<uuid> reaches v1 with the same segments; /v1 redirects to /v1/', async () => {
  const { app } = ironic();
  try {
    const bookmark = await app.inject({ url: `/chassis/${CHASSIS}`, headers: { accept: 'application/json' } });
    assert.equal(bookmark.statusCode, 200);
    assert.deepEqual(bookmark.json(), { uuid: CHASSIS, description: 'rack 1' });
    const list = await app.inject({ url: '/chassis', headers: { accept: 'application/json' } });
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().chassis.length, 1);
    const v1 = await app.inject({ url: '/v1/', headers: { accept: 'application/json' } });
    assert.equal(v1.body, '{"id":"v1"}');
    const bare = await app.inject({ url: '/v1', headers: { accept: 'application/json' } });
    // Pecan's trailing slash for an index reached without it.
    assert.equal(bare.statusCode, 302);
    assert.equal(bare.headers['location'], '/v1/');
    assert.equal((await app.inject('/')).body, '{"name":"OpenStack Ironic API"}');
  } finally {
    await app.close();
  }
});

test('gap 3: lookups that hand the same segments back and forth stop at the lookup cap (404), and a lookup returning itself is no progress', async () => {
  let calls = 0;
  class Ping {
    pong!: Pong;
    @expose() index() {
      return 'ping';
    }
    _lookup(...rest: string[]) {
      calls++;
      return [this.pong, rest];
    }
  }
  class Pong {
    constructor(readonly ping: Ping) {}
    _lookup(...rest: string[]) {
      calls++;
      return [this.ping, rest];
    }
  }
  class Same {
    @expose() index() {
      return 'same';
    }
    _lookup(...rest: string[]) {
      calls++;
      return [this, rest];
    }
  }
  const ping = new Ping();
  ping.pong = new Pong(ping);
  for (const root of [ping, new Same()]) {
    calls = 0;
    const app = createApp({ root, logger: false });
    try {
      const res = await app.inject('/a/b');
      assert.equal(res.statusCode, 404);
      assert.ok(calls >= 1 && calls <= 16, `${calls} lookups`);
    } finally {
      await app.close();
    }
  }
});

test('gap 4: an error-rewriting plugin sees the response after NoExceptionTracebackHook.after cut the traceback', async () => {
  class Boom {
    @methodExpose()
    index() {
      throw new Conflict('Node is locked.\nTraceback (most recent call last):\n  File "conductor/manager.py", line 9\nsecret internals');
    }
  }
  const { app } = ironic(new Boom());
  try {
    const res = await app.inject({ url: '/', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 409);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(res.body), { error_message: '{"faultstring":"Node is locked.","faultcode":"Client","debuginfo":null}' });
  } finally {
    await app.close();
  }
});

test('gap 4: a plugin that asks for an earlier stage (below APP_HOOKS_STAGE) runs before the after hooks', async () => {
  const { APP_HOOKS_STAGE } = await import('@hickory/core/kit');
  const order: string[] = [];
  class Mark extends Hook {
    override after() {
      order.push('after hook');
    }
    override on_error() {
      order.push('on_error hook');
    }
  }
  const plugin = definePlugin({
    name: 'order',
    apply(kernel) {
      kernel.hooks.beforeSend.tap('late', () => void order.push('plugin beforeSend'));
      kernel.hooks.beforeSend.tap({ name: 'early', stage: APP_HOOKS_STAGE - 1 }, () => void order.push('early beforeSend'));
      kernel.hooks.onAbort.tap('late', () => void order.push('plugin onAbort'));
    },
  });
  class Root {
    @expose() index() {
      return abort(403);
    }
  }
  const app = createApp({ root: new Root(), logger: false, hooks: [new Mark()] }).use(plugin);
  try {
    assert.equal((await app.inject('/')).statusCode, 403);
    assert.deepEqual(order, ['on_error hook', 'plugin onAbort', 'early beforeSend', 'after hook', 'plugin beforeSend']);
  } finally {
    await app.close();
  }
});

// ---- Barbican: barbican/api/controllers/__init__.py ----

/** `@enforce_rbac(action)`: checks the policy, then inserts the caller's project id as the first argument. */
function enforceRbac(action: string) {
  return <This, A extends unknown[], R>(fn: Method<This, A, R>) =>
    wraps(fn, { inserts: 1 })(function (this: This, ...args) {
      const external_project_id = request.headers['x-project-id'];
      if (typeof external_project_id !== 'string') abort(403, `${action} is not allowed.`);
      return fn.apply(this, [external_project_id, ...args] as unknown as A);
    });
}

test('gap 1: Barbican @enforce_rbac inserts external_project_id first: GET /secrets/7/8 maps id and version, nothing shifts', async () => {
  class Root {
    @expose('json')
    @enforceRbac('secret:get')
    secrets(external_project_id: string, id: string, version = 'latest') {
      return { external_project_id, id, version };
    }
  }
  const app = createApp({ root: new Root(), logger: false });
  try {
    const res = await app.inject({ url: '/secrets/7/8', headers: { 'x-project-id': 'p1' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { external_project_id: 'p1', id: '7', version: '8' });
    assert.deepEqual((await app.inject({ url: '/secrets/7', headers: { 'x-project-id': 'p1' } })).json(), { external_project_id: 'p1', id: '7', version: 'latest' });
    // Two parameters the request fills: a third segment is no route.
    assert.equal((await app.inject({ url: '/secrets/7/8/9', headers: { 'x-project-id': 'p1' } })).statusCode, 404);
    assert.equal((await app.inject('/secrets/7')).statusCode, 403);
  } finally {
    await app.close();
  }
});

test('gap 1: wraps options are checked where the decorator is applied', () => {
  function show(id: string) {
    return id;
  }
  assert.throws(() => wraps(show, { supplies: ['nope'] }), { code: 'HICKORY_ERR_DISPATCH_WRAPS_OPTIONS' });
  assert.throws(() => wraps(show, { inserts: -1 }), { code: 'HICKORY_ERR_DISPATCH_WRAPS_OPTIONS' });
  assert.throws(() => wraps(show, { kwargs: 'yes' as unknown as true }), { code: 'HICKORY_ERR_DISPATCH_WRAPS_OPTIONS' });
});
