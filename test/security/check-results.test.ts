// Checks that mean no (issue #29): a `secure` check lets a request through only when it returns
// (or resolves to) exactly `true`. `[]`, `{}`, an empty Set, `'false'`, `1`… answer 401; a
// returned HTTPError is answered as if thrown; a result that is neither true nor false is also a
// warning outside production, naming the check. Every form of `secure`, sync and async.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createApp, expose, HTTPError, type Request } from '@hickory/app';
import { secure, SecureController } from '@hickory/hooks';

// What the current request's check returns: the `x-case` header picks a row of this table.
const results: Record<string, () => unknown> = {
  true: () => true,
  false: () => false,
  undefined: () => undefined,
  null: () => null,
  zero: () => 0,
  one: () => 1,
  'empty string': () => '',
  "'false'": () => 'false',
  "'true'": () => 'true',
  'empty array': () => [],
  'empty object': () => ({}),
  'empty Set': () => new Set(),
  'a Map': () => new Map([['ok', true]]),
  'an object saying yes': () => ({ allowed: true }),
  'a function': () => () => true,
  'an Error': () => new Error('no'),
  'Boolean(true) object': () => Object(true) as unknown,
  'HTTPError 403': () => new HTTPError(403, 'Staff only.'),
};
const allowed = new Set(['true']);

let handlerRuns = 0;
function pick(request: Request): unknown {
  const name = String(request.headers['x-case']);
  const make = results[name];
  if (make === undefined) throw new Error(`no case ${name}`);
  const value = make();
  return request.headers['x-async'] === '1' ? new Promise((done) => setTimeout(() => done(value), 1)) : value;
}

class Panel {
  @expose() index() {
    handlerRuns++;
    return 'panel';
  }
}
class ByClass extends SecureController {
  static override check_permissions(request: Request) {
    return pick(request);
  }
  @expose() index() {
    handlerRuns++;
    return 'class';
  }
}
@secure(pick)
class Decorated {
  @expose() index() {
    handlerRuns++;
    return 'decorated';
  }
}
class Named {
  allow(request: Request) {
    return pick(request);
  }
  @expose() index() {
    handlerRuns++;
    return 'named';
  }
}
class Root {
  child = secure(new Panel(), pick);
  byclass = new ByClass();
  decorated = new Decorated();
  named = secure(new Named(), 'allow');
  @secure(pick) @expose() method() {
    handlerRuns++;
    return 'method';
  }
}

const warnings: string[] = [];
const logger = { info() {}, warn: (message: string) => warnings.push(message), error() {} };
const savedEnv = process.env['NODE_ENV'];
after(() => {
  if (savedEnv === undefined) delete process.env['NODE_ENV'];
  else process.env['NODE_ENV'] = savedEnv;
});

const paths = ['/child/', '/byclass/', '/decorated/', '/named/', '/method'];

test('only true lets a request through, for every form of secure, sync and async', async () => {
  process.env['NODE_ENV'] = 'production';
  const app = createApp({ root: new Root(), logger });
  try {
    for (const path of paths) {
      for (const sync of ['0', '1']) {
        for (const name of Object.keys(results)) {
          handlerRuns = 0;
          const res = await app.inject({ url: path, headers: { 'x-case': name, 'x-async': sync } });
          const label = `${path} ${name}${sync === '1' ? ' (async)' : ''}`;
          if (allowed.has(name)) {
            assert.equal(res.statusCode, 200, label);
            assert.equal(handlerRuns, 1, label);
          } else if (name === 'HTTPError 403') {
            assert.equal(res.statusCode, 403, label);
            assert.match(res.body, /Staff only\./, label);
            assert.equal(handlerRuns, 0, label);
          } else {
            assert.equal(res.statusCode, 401, `${label}: ${res.body}`);
            assert.equal(handlerRuns, 0, label);
          }
        }
      }
    }
    // Production: no warning about the results.
    assert.deepEqual(warnings.filter((w) => w.includes('permission check')), []);
  } finally {
    await app.close();
  }
});

test('outside production, a result that is not a boolean is a warning naming the check, once', async () => {
  process.env['NODE_ENV'] = 'development';
  warnings.length = 0;
  const yes = () => ({ ok: 1 });
  const isStaff = (request: Request) => (request.headers['x-staff'] === '1' ? [] : false);
  class Zone {
    @expose() index() { return 'zone'; }
  }
  class Staff extends SecureController {
    static override check_permissions() { return 'yes'; }
    @expose() index() { return 'staff'; }
  }
  class WarnRoot {
    zone = secure(new Zone(), isStaff);
    other = secure(new Zone(), yes);
    staff = new Staff();
  }
  const app = createApp({ root: new WarnRoot(), logger });
  try {
    assert.equal((await app.inject('/zone/')).statusCode, 401); // false: refused, no warning
    assert.deepEqual(warnings, []);
    for (let i = 0; i < 3; i++) assert.equal((await app.inject({ url: '/zone/', headers: { 'x-staff': '1' } })).statusCode, 401);
    assert.equal((await app.inject('/other/')).statusCode, 401);
    assert.equal((await app.inject('/staff/')).statusCode, 401);
    assert.deepEqual(warnings, [
      'The permission check isStaff (securing Zone) returned an array, which is neither true nor false: the request was refused (401). Only true lets a request through; return true or false (or throw abort(403)).',
      'The permission check yes (securing Zone) returned an object (Object), which is neither true nor false: the request was refused (401). Only true lets a request through; return true or false (or throw abort(403)).',
      'The permission check Staff.check_permissions returned "yes", which is neither true nor false: the request was refused (401). Only true lets a request through; return true or false (or throw abort(403)).',
    ]);
  } finally {
    await app.close();
  }
});
