import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { RestController, restPlugin } from './index.ts';

class Books extends RestController {
  static override _custom_actions = { checkout: ['POST'] };
  @expose('json') get_all(author_id: string) { return { books_of: author_id }; }
  @expose('json') get_one(author_id: string, id: string) { return { book: [author_id, id] }; }
  @expose('json') put(author_id: string, id: string, name: string) { return { put: [author_id, id, name] }; }
  @expose('json') checkout(author_id: string, id: string) { return { checkout: [author_id, id] }; }
}
class Authors extends RestController {
  books = new Books();
  @expose('json') get_one(id: string) { return { author: id }; }
}

test('over a real socket: nesting, _method in a form, custom actions, 405/OPTIONS/HEAD', async () => {
  const app = createKernel({ root: { authors: new Authors() }, logger: false }).use(restPlugin);
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    let res = await fetch(`${url}/authors/1/books/2`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '{"book":["1","2"]}');
    res = await fetch(`${url}/authors/%C3%A9/books/`);
    assert.equal(await res.text(), '{"books_of":"é"}');
    res = await fetch(`${url}/authors/1/books/2`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '_method=put&name=Dune',
    });
    assert.equal(await res.text(), '{"put":["1","2","Dune"]}');
    res = await fetch(`${url}/authors/1/books/2/checkout`, { method: 'POST' });
    assert.equal(await res.text(), '{"checkout":["1","2"]}');
    res = await fetch(`${url}/authors/1/books/2/checkout`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
    await res.arrayBuffer();
    res = await fetch(`${url}/authors/1/books/2`, { method: 'PATCH' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, PUT, OPTIONS');
    await res.arrayBuffer();
    res = await fetch(`${url}/authors/1/books/`, { method: 'OPTIONS' });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    res = await fetch(`${url}/authors/1/books/2`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(await res.text(), '');
    res = await fetch(`${url}/authors/books/2`);
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  } finally {
    await app.close();
  }
});
