import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { fileURLToPath } from 'node:url';
import { expose } from '@hickory/dispatch';
import { ejsRenderer } from '@hickory/ejs';
import { hooksPlugin } from '@hickory/hooks';
import { restPlugin } from '@hickory/rest';
import { bookControllers } from '@hickory/sandbox/controllers/books';
import { Library } from '@hickory/sandbox/store/library';
import { bothWays } from './rest-harness.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
// The /books/ pages are the sandbox's ejs templates; the JSON answers are asked for by Accept.
const TEMPLATES = fileURLToPath(new URL('../sandbox/templates', import.meta.url));
const JSON_ACCEPT = { accept: 'application/json' };

// The books live in a database in memory; each request queries it in a transaction of its own.
function app() {
  const library = new Library(':memory:');
  const shelf = bookControllers(library);
  class Root {
    books = shelf.books;
    authors = shelf.authors;
    @expose() index() { return 'root'; }
  }
  return createKernel({ root: new Root(), template_path: TEMPLATES, hooks: [library.hook], logger: false }).use(hooksPlugin).use(restPlugin).use(ejsRenderer);
}

test('spec E, every row of the method-name table, on the sandbox /books/', async () => {
  await bothWays(app, async (send, how) => {
    // post: POST /books/
    let res = await send({ method: 'POST', url: '/books/', form: 'name=Dune' });
    assert.equal(res.status, 200, how);
    assert.equal(res.headers['content-type'], JSON_TYPE);
    assert.equal(res.body, '{"id":"1","name":"Dune"}');
    await send({ method: 'POST', url: '/books/', form: 'name=Emma' });
    // get_all: GET /books/
    res = await send({ method: 'GET', url: '/books/', headers: JSON_ACCEPT });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], JSON_TYPE);
    assert.equal(res.body, '[{"id":"1","name":"Dune"},{"id":"2","name":"Emma"}]');
    // get_one: GET /books/<id>
    res = await send({ method: 'GET', url: '/books/1', headers: JSON_ACCEPT });
    assert.equal(res.body, '{"id":"1","name":"Dune"}');
    // new: GET /books/new
    res = await send({ method: 'GET', url: '/books/new' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], HTML_TYPE);
    assert.match(res.body, /<form method="post" action="\/books\/">\n  <label>Name <input name="name" required><\/label>/);
    // edit: GET /books/<id>/edit
    res = await send({ method: 'GET', url: '/books/1/edit' });
    assert.match(res.body, /<h1>Edit Dune<\/h1>/);
    assert.match(res.body, /<form method="post" action="\/books\/1">\n  <input type="hidden" name="_method" value="put">\n  <label>Name <input name="name" value="Dune" required><\/label>/);
    // put: PUT /books/<id>, and POST /books/<id>?_method=put
    res = await send({ method: 'PUT', url: '/books/1', form: 'name=Dune%20Messiah' });
    assert.equal(res.body, '{"id":"1","name":"Dune Messiah"}');
    res = await send({ method: 'POST', url: '/books/2?_method=put', form: 'name=Persuasion' });
    assert.equal(res.body, '{"id":"2","name":"Persuasion"}');
    res = await send({ method: 'POST', url: '/books/2', form: '_method=put&name=Emma' });
    assert.equal(res.body, '{"id":"2","name":"Emma"}');
    // get_delete: GET /books/<id>/delete
    res = await send({ method: 'GET', url: '/books/1/delete' });
    assert.match(res.body, /<h1>Delete Dune Messiah\?<\/h1>/);
    assert.match(res.body, /<form method="post" action="\/books\/1">\n  <input type="hidden" name="_method" value="delete">\n  <button type="submit">Delete<\/button>/);
    // delete: DELETE /books/<id>, and POST /books/<id>?_method=delete
    res = await send({ method: 'DELETE', url: '/books/1' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '{}');
    res = await send({ method: 'POST', url: '/books/2?_method=delete' });
    assert.equal(res.body, '{}');
    assert.equal((await send({ method: 'GET', url: '/books/', headers: JSON_ACCEPT })).body, '[]');
    // A missing record → 404.
    for (const [method, url] of [['GET', '/books/1'], ['PUT', '/books/1'], ['DELETE', '/books/1'], ['POST', '/books/1/checkout']]) {
      res = await send({ method: method!, url: url!, form: 'name=x', headers: { accept: 'application/json' } });
      assert.equal(res.status, 404, `${method} ${url} ${how}`);
      assert.deepEqual(JSON.parse(res.body), { code: 404, title: 'Not Found', description: 'No book with id "1".' });
    }
    // The HTML pages (offered as HTML only) answer 404 with the HTML error page.
    for (const url of ['/books/1/edit', '/books/1/delete']) {
      res = await send({ method: 'GET', url });
      assert.equal(res.status, 404, url);
      assert.match(res.body, /<p>No book with id &quot;1&quot;\.<\/p>/);
    }
  });
});

test('spec E rule 1: _method stands for PUT/DELETE on a POST only; on a GET → 405', async () => {
  await bothWays(app, async (send) => {
    await send({ method: 'POST', url: '/books/', form: 'name=Dune' });
    let res = await send({ method: 'GET', url: '/books/1?_method=delete' });
    assert.equal(res.status, 405);
    assert.equal(res.headers['allow'], 'GET, HEAD, PUT, DELETE, OPTIONS');
    assert.equal((await send({ method: 'GET', url: '/books/1' })).status, 200);
    res = await send({ method: 'POST', url: '/books/1', form: '_method=delete' });
    assert.equal(res.body, '{}');
  });
});

test('spec E rule 6: custom action checkout answers POST /books/<id>/checkout only', async () => {
  await bothWays(app, async (send) => {
    await send({ method: 'POST', url: '/books/', form: 'name=Dune' });
    let res = await send({ method: 'POST', url: '/books/1/checkout' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '{"id":"1","name":"Dune","checked_out":true}');
    for (const method of ['GET', 'PUT', 'DELETE']) {
      res = await send({ method, url: '/books/1/checkout' });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers['allow'], 'POST, OPTIONS');
    }
  });
});

test('spec E rules 4-5: /authors/<author_id>/books/<id> calls the child get(author_id, id)', async () => {
  await bothWays(app, async (send, how) => {
    let res = await send({ method: 'GET', url: '/authors/' });
    assert.equal(res.body, '[{"id":"1","name":"Frank Herbert"},{"id":"2","name":"Jane Austen"}]');
    assert.equal((await send({ method: 'GET', url: '/authors/2' })).body, '{"id":"2","name":"Jane Austen"}');
    assert.equal((await send({ method: 'GET', url: '/authors/1/books/' })).body, '[]');
    res = await send({ method: 'POST', url: '/authors/1/books/', form: 'name=Dune' });
    assert.equal(res.status, 200, how);
    assert.equal(res.body, '{"id":"1","name":"Dune"}');
    await send({ method: 'POST', url: '/authors/2/books/', form: 'name=Emma' });
    assert.equal((await send({ method: 'GET', url: '/authors/1/books/' })).body, '[{"id":"1","name":"Dune"}]');
    assert.equal((await send({ method: 'GET', url: '/authors/1/books/1' })).body, '{"id":"1","name":"Dune"}');
    assert.equal((await send({ method: 'GET', url: '/authors/2/books/2' })).body, '{"id":"2","name":"Emma"}');
    // The same records through the top-level /books/.
    assert.equal((await send({ method: 'GET', url: '/books/', headers: JSON_ACCEPT })).body, '[{"id":"1","name":"Dune"},{"id":"2","name":"Emma"}]');
    // Book 2 is not by author 1; author 9 does not exist; the author id is missing.
    res = await send({ method: 'GET', url: '/authors/1/books/2', headers: { accept: 'application/json' } });
    assert.equal(res.status, 404);
    assert.equal(JSON.parse(res.body).description, 'Author "1" has no book "2".');
    res = await send({ method: 'GET', url: '/authors/9/books/', headers: { accept: 'application/json' } });
    assert.equal(res.status, 404);
    assert.equal(JSON.parse(res.body).description, 'No author with id "9".');
    assert.equal((await send({ method: 'GET', url: '/authors/books/' })).status, 404);
    res = await send({ method: 'DELETE', url: '/authors/1/books/1' });
    assert.equal(res.status, 405);
    assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS');
    res = await send({ method: 'OPTIONS', url: '/authors/1/books/' });
    assert.equal(res.status, 204);
    assert.equal(res.headers['allow'], 'GET, HEAD, POST, OPTIONS');
  });
});

test('spec E: unsupported verbs → 405 with Allow, OPTIONS → 204, HEAD → GET without a body', async () => {
  await bothWays(app, async (send) => {
    await send({ method: 'POST', url: '/books/', form: 'name=Dune' });
    const cases: Array<[string, string, string]> = [
      ['PATCH', '/books/1', 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['POST', '/books/1', 'GET, HEAD, PUT, DELETE, OPTIONS'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await send({ method, url, headers: { accept: 'application/json' } });
      assert.equal(res.status, 405, `${method} ${url}`);
      assert.equal(res.headers['allow'], allow, `${method} ${url}`);
      assert.deepEqual(JSON.parse(res.body), { code: 405, title: 'Method Not Allowed', description: `${method} is not allowed here; allowed: ${allow}.` });
    }
    let res = await send({ method: 'OPTIONS', url: '/books/1' });
    assert.equal(res.status, 204);
    assert.equal(res.headers['allow'], 'GET, HEAD, PUT, DELETE, OPTIONS');
    assert.equal(res.body, '');
    res = await send({ method: 'HEAD', url: '/books/1', headers: JSON_ACCEPT });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], JSON_TYPE);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength('{"id":"1","name":"Dune"}')));
    assert.equal(res.body, '');
  });
});

test('unicode and escaped ids reach the handlers decoded', async () => {
  await bothWays(app, async (send) => {
    let res = await send({ method: 'POST', url: '/books/', form: `name=${encodeURIComponent('Les Misérables')}` });
    assert.equal(res.body, '{"id":"1","name":"Les Misérables"}');
    res = await send({ method: 'GET', url: '/books/caf%C3%A9', headers: { accept: 'application/json' } });
    assert.equal(res.status, 404);
    assert.equal(JSON.parse(res.body).description, 'No book with id "café".');
    res = await send({ method: 'GET', url: '/books/a%2Fb', headers: { accept: 'application/json' } });
    assert.equal(JSON.parse(res.body).description, 'No book with id "a/b".');
    assert.equal((await send({ method: 'GET', url: '/books/%E0%A4%A' })).status, 400);
  });
});
