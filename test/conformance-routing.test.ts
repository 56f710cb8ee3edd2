// Contract v2, routing rules: what is reserved (only `_` names and Object.prototype members), an
// explicit route on a special method, and one answer for empty segments — with context locals and
// with use_context_locals: false (handlers then receive (request, response, ...)).
import assert from 'node:assert/strict';
import { expose, route } from '@hickory/dispatch';
import { RestController } from '@hickory/rest';
import { createApp } from '@hickory/app';
import { testInBothModes, type Mode } from './modes.ts';

function tree({ handler }: Mode) {
  class Name {
    @expose() @handler index() {
      return 'the name page';
    }
  }

  class Things extends RestController {
    static override _custom_actions = { length: ['GET', 'POST'], bind: ['PUT'] };
    @expose('json') @handler get_one(id: string) {
      return { id };
    }
    @expose('json') @handler length(id: string, unit = 'cm') {
      return { length: id, unit };
    }
    @expose('json') @handler bind(id: string) {
      return { bound: id };
    }
  }

  class Root {
    name = new Name();
    things = new Things();
    @expose() @handler index() {
      return 'root';
    }
    @expose() @handler call() {
      return 'called';
    }
    @expose() @handler apply() {
      return 'applied';
    }
  }
  return new Root();
}

testInBothModes('name, length, call, apply and bind are ordinary segments', async (mode) => {
  const app = createApp({ root: tree(mode), logger: false, ...mode.config });
  try {
    const answers: Array<[string, string, number, string]> = [
      ['GET', '/name/', 200, 'the name page'],
      ['GET', '/call', 200, 'called'],
      ['GET', '/apply', 200, 'applied'],
      ['GET', '/things/1/length', 200, '{"length":"1","unit":"cm"}'],
      ['POST', '/things/1/length?unit=mm', 200, '{"length":"1","unit":"mm"}'],
      // A PUT action's name comes first (contract v3, as Pecan).
      ['PUT', '/things/bind/7', 200, '{"bound":"7"}'],
      ['GET', '/things/bind/7', 405, ''],
      ['GET', '/constructor', 404, ''],
      ['GET', '/hasOwnProperty', 404, ''],
      ['GET', '/_lookup', 404, ''],
    ];
    for (const [method, url, status, body] of answers) {
      const res = await app.inject({ method: method as 'GET', url });
      assert.equal(res.statusCode, status, `${method} ${url}`);
      if (body) assert.equal(res.body, body, `${method} ${url}`);
    }
  } finally {
    await app.close();
  }
});

testInBothModes('an explicit route on _lookup, _default or _route fails at ready() naming it', async (mode) => {
  for (const special of ['_lookup', '_default', '_route'] as const) {
    class Bad {
      @expose() index() {
        return 'i';
      }
    }
    Object.defineProperty(Bad.prototype, special, { value: route('door', expose()(function door() {})), writable: true, configurable: true });
    const app = createApp({ root: new Bad(), logger: false, ...mode.config });
    await assert.rejects(app.ready(), (error: Error & { code: string }) => {
      assert.equal(error.code, 'HICKORY_ERR_DISPATCH_ROUTE_SPECIAL');
      assert.equal(error.message, `Bad.${special} is a special method (_lookup, _default, _route), found by name and never addressable by a URL: remove its explicit route "door".`);
      return true;
    });
  }
  class Decorated {
    @expose() index() {
      return 'i';
    }
    @expose({ route: 'x' }) _lookup() {
      return undefined;
    }
  }
  await assert.rejects(createApp({ root: new Decorated(), logger: false, ...mode.config }).ready(), { code: 'HICKORY_ERR_DISPATCH_ROUTE_SPECIAL' });
});

testInBothModes('an empty segment anywhere but at the end is a 404: //, /sub//, //sub/, /sub///index', async (mode) => {
  const app = createApp({ root: tree(mode), logger: false, ...mode.config });
  try {
    for (const url of ['//', '/name//', '//name/', '/name///index', '/things//1']) {
      const res = await app.inject({ url, headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), { code: 404, title: 'Not Found', description: 'The path has an empty segment ("//").' }, url);
    }
    assert.equal((await app.inject('/name/')).statusCode, 200);
  } finally {
    await app.close();
  }
});
