// Contract v2, generic controllers: path segments and variables go to the handler chosen for the
// request's method, and any exposed method may be generic — with context locals and with
// use_context_locals: false (handlers then receive (request, response, ...)).
import assert from 'node:assert/strict';
import { expose, when } from '@hickory/dispatch';
import { createApp } from '@hickory/app';
import { testInBothModes, type Mode } from './modes.ts';

function tree({ handler }: Mode) {
  class Leaf {
    @expose({ generic: true }) @handler index() {
      return 'leaf get';
    }
    @when('index', { method: 'DELETE' }) @handler remove(name: string, ...rest: string[]) {
      return `deleted ${name} (${rest.join(' ')})`;
    }
  }

  class Middle {
    sub = new Leaf();
  }

  class Root {
    sub = new Middle();
    @expose({ generic: true }) @handler index() {
      return 'index get';
    }
    @when('index', { method: 'POST' }) @handler index_post(a: string, b: string | null = null) {
      return `post a=${a} b=${b}`;
    }
    @expose({ generic: true, template: 'json' }) @handler items() {
      return { method: 'GET' };
    }
    @when('items', { method: 'POST', template: 'json' }) @handler items_post(name: string) {
      return { created: name };
    }
    @when('items', { method: 'PUT', template: 'json' }) @handler items_put(id: string, name: string) {
      return { id, name };
    }
  }
  return new Root();
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

testInBothModes('segments and variables go to the handler of the request method', async (mode) => {
  const app = createApp({ root: tree(mode), logger: false, ...mode.config });
  try {
    const cases: Array<[string, string, string, number, string]> = [
      ['POST', '/5', 'b=2', 200, 'post a=5 b=2'],
      ['POST', '/5', '', 200, 'post a=5 b=null'],
      ['POST', '/5/6', '', 200, 'post a=5 b=6'],
      ['POST', '/5/6/7', '', 404, ''],
      ['GET', '/5', '', 404, ''],
      ['DELETE', '/sub/sub/joe/is/cool', '', 200, 'deleted joe (is cool)'],
      ['GET', '/sub/sub/joe', '', 404, ''],
      ['PUT', '/items/7', 'name=Dune', 200, '{"id":"7","name":"Dune"}'],
      ['POST', '/items', 'name=Emma', 200, '{"created":"Emma"}'],
      ['GET', '/items', '', 200, '{"method":"GET"}'],
      ['GET', '/items_put', '', 404, ''],
      ['GET', '/items_post', '', 404, ''],
      ['GET', '/remove', '', 404, ''],
    ];
    for (const [method, url, payload, status, body] of cases) {
      const res = await app.inject({ method: method as 'GET', url, payload, headers: payload ? FORM : {} });
      assert.equal(res.statusCode, status, `${method} ${url}`);
      if (body) assert.equal(res.body, body, `${method} ${url}`);
    }
    const patch = await app.inject({ method: 'PATCH', url: '/items' });
    assert.equal(patch.statusCode, 405);
    assert.equal(patch.headers.allow, 'GET, HEAD, POST, PUT, OPTIONS');
    const options = await app.inject({ method: 'OPTIONS', url: '/items' });
    assert.equal(options.statusCode, 204);
    assert.equal(options.headers.allow, 'GET, HEAD, POST, PUT, OPTIONS');
  } finally {
    await app.close();
  }
});
