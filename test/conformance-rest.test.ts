// Contract v2, RestController: plain child controllers (Pecan's _lookup_child and routing_args),
// POST and PUT at every nesting level, and 405 for a resource with no handler — with context
// locals and with use_context_locals: false (handlers then receive (request, response, ...ids)).
import assert from 'node:assert/strict';
import { expose } from '@hickory/dispatch';
import { RestController } from '@hickory/rest';
import { createApp } from '@hickory/app';
import { testInBothModes, type Mode } from './modes.ts';

function tree({ handler }: Mode) {
  class Others {
    @expose() @handler index(...ids: string[]) {
      return `others.index(${ids.join(',')})`;
    }
    @expose() @handler reset(...args: string[]) {
      return `others.reset(${args.join(',')})`;
    }
  }

  class Things extends RestController {
    others = new Others();
    @expose() @handler get_one(...args: string[]) {
      return `things.get_one(${args.join(',')})`;
    }
    @expose() @handler get_all() {
      return 'things.get_all()';
    }
  }

  class Gadgets extends RestController {
    others = new Others();
    @expose() @handler get_one(id: string) {
      return `gadgets.get_one(${id})`;
    }
  }

  class Notes {
    @expose() @handler index(...ids: string[]) {
      return `notes.index(${ids.join(',')})`;
    }
  }

  class Books extends RestController {
    notes = new Notes();
    @expose() @handler get_all(author: string) {
      return `books.get_all(${author})`;
    }
    @expose() @handler get_one(author: string, id: string) {
      return `books.get_one(${author},${id})`;
    }
    @expose() @handler post(author: string, title: string) {
      return `books.post(${author},${title})`;
    }
    @expose() @handler put(author: string, id: string, title: string) {
      return `books.put(${author},${id},${title})`;
    }
  }

  class Authors extends RestController {
    books = new Books();
    @expose() @handler get_one(id: string) {
      return `authors.get_one(${id})`;
    }
    @expose() @handler post(name: string) {
      return `authors.post(${name})`;
    }
    @expose() @handler put(id: string, name: string) {
      return `authors.put(${id},${name})`;
    }
  }

  class Empty extends RestController {}

  class Note {
    constructor(private readonly id: string) {}
    @expose() @handler index() {
      return `note ${this.id}`;
    }
  }

  class OnlyLookup extends RestController {
    _lookup(id: string, ...remainder: string[]) {
      return [new Note(id), remainder];
    }
  }

  class Root {
    things = new Things();
    gadgets = new Gadgets();
    authors = new Authors();
    empty = new Empty();
    only = new OnlyLookup();
  }
  return new Root();
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function table(mode: Mode, cases: Array<[string, string, string, number, string]>): Promise<void> {
  const app = createApp({ root: tree(mode), logger: false, ...mode.config });
  try {
    for (const [method, url, payload, status, expected] of cases) {
      const res = await app.inject({ method: method as 'GET', url, payload, headers: payload ? FORM : {} });
      assert.equal(res.statusCode, status, `${method} ${url}: ${res.body.slice(0, 120)}`);
      if (status < 400) assert.equal(res.body, expected, `${method} ${url}`);
      else assert.equal(res.headers.allow ?? '', expected, `${method} ${url} Allow`);
    }
  } finally {
    await app.close();
  }
}

testInBothModes('a plain controller held by a RestController is reached by name for every verb', (mode) =>
  table(mode, [
    ['DELETE', '/things/others/', '', 200, 'others.index()'],
    ['DELETE', '/things/others/reset/1', '', 200, 'others.reset(1)'],
    ['PUT', '/things/others/reset/1', '', 200, 'others.reset(1)'],
    ['POST', '/things/others/', '_method=delete', 200, 'others.index()'],
    ['GET', '/things/others/?_method=delete', '', 405, 'GET, HEAD, OPTIONS'],
    ['GET', '/things/others/?_method=put', '', 405, 'GET, HEAD, OPTIONS'],
    ['DELETE', '/gadgets/others/', '', 200, 'others.index()'],
    ['GET', '/gadgets/others/reset/2', '', 200, 'others.reset(2)'],
    ['GET', '/gadgets/7', '', 200, 'gadgets.get_one(7)'],
  ]));

testInBothModes('after the parent\'s ids: the ids consumed before the child go first to the handler it reaches', (mode) =>
  table(mode, [
    ['GET', '/things/one/two/three/others/', '', 200, 'others.index(one,two,three)'],
    ['DELETE', '/things/one/others/reset/x', '', 200, 'others.reset(one,x)'],
    ['GET', '/gadgets/9/others/', '', 200, 'others.index(9)'],
    ['GET', '/things/one/two', '', 200, 'things.get_one(one,two)'],
  ]));

testInBothModes('POST and PUT at each nesting level, with a plain controller below nested resources', (mode) =>
  table(mode, [
    ['POST', '/authors/', 'name=Le Guin', 200, 'authors.post(Le Guin)'],
    ['PUT', '/authors/1', 'name=Ursula', 200, 'authors.put(1,Ursula)'],
    ['POST', '/authors/1/books/', 'title=Earthsea', 200, 'books.post(1,Earthsea)'],
    ['PUT', '/authors/1/books/2', 'title=Tehanu', 200, 'books.put(1,2,Tehanu)'],
    ['GET', '/authors/1/books/', '', 200, 'books.get_all(1)'],
    ['GET', '/authors/1/books/2', '', 200, 'books.get_one(1,2)'],
    ['GET', '/authors/1/books/2/notes/', '', 200, 'notes.index(1,2)'],
    ['POST', '/authors/1/books/2/notes/', '', 200, 'notes.index(1,2)'],
    ['PUT', '/authors/1/books/2/notes/', '', 200, 'notes.index(1,2)'],
    ['GET', '/authors/books/', '', 404, ''],
  ]));

testInBothModes('a RestController with no handler for the request answers 405 with Allow, not 404', (mode) =>
  table(mode, [
    ['GET', '/empty/', '', 405, 'OPTIONS'],
    ['POST', '/empty/', '', 405, 'OPTIONS'],
    ['DELETE', '/empty/', '', 405, 'OPTIONS'],
    ['GET', '/empty/new', '', 405, 'OPTIONS'],
    ['GET', '/empty/1/edit', '', 405, 'OPTIONS'],
    ['PUT', '/empty/1', '', 405, 'OPTIONS'],
    ['POST', '/empty/1?_method=delete', '', 405, 'OPTIONS'],
    ['OPTIONS', '/empty/', '', 204, ''],
    ['GET', '/only/', '', 405, 'OPTIONS'],
    ['GET', '/only/foo/', '', 200, 'note foo'],
    ['GET', '/things/1/2/3/4/5/6/7/8/9/10', '', 200, 'things.get_one(1,2,3,4,5,6,7,8,9,10)'],
    ['GET', '/gadgets/7/8', '', 404, ''],
  ]));
