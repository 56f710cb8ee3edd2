import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin } from '@hickory/dispatch';
import { hooksPlugin } from '@hickory/hooks';
import { restPlugin } from '@hickory/rest';
import { GenericBooksController, GenericItemsController } from '@hickory/sandbox/controllers/books';
import { Library } from '@hickory/sandbox/store/library';
import { bothWays } from './rest-harness.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const ACCEPT_JSON = { accept: 'application/json' };

// The books live in a database in memory; each request queries it in a transaction of its own.
function collectionApp() {
  const library = new Library(':memory:');
  return createKernel({ root: new GenericBooksController(library), hooks: [library.hook], logger: false }).use(hooksPlugin).use(restPlugin);
}

test('spec D, every row: the generic books collection at / and its items at /<id>/', async () => {
  await bothWays(collectionApp, async (send, how) => {
    // GET / → JSON list of {id, name}
    let res = await send({ method: 'GET', url: '/' });
    assert.equal(res.status, 200, how);
    assert.equal(res.headers['content-type'], JSON_TYPE);
    assert.equal(res.body, '[]');
    // POST / with name → the new record, id assigned by the service
    res = await send({ method: 'POST', url: '/', form: 'name=Dune' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '{"id":"1","name":"Dune"}');
    res = await send({ method: 'POST', url: '/?name=Emma' });
    assert.equal(res.body, '{"id":"2","name":"Emma"}');
    assert.equal((await send({ method: 'GET', url: '/' })).body, '[{"id":"1","name":"Dune"},{"id":"2","name":"Emma"}]');
    // GET /<id>/
    res = await send({ method: 'GET', url: '/1/' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '{"id":"1","name":"Dune"}');
    // PUT /<id>/ with name → updated record
    res = await send({ method: 'PUT', url: '/1/', form: 'name=Dune%20Messiah' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '{"id":"1","name":"Dune Messiah"}');
    assert.equal((await send({ method: 'GET', url: '/1/' })).body, '{"id":"1","name":"Dune Messiah"}');
    // DELETE /<id>/ → {}
    res = await send({ method: 'DELETE', url: '/1/' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '{}');
    assert.equal((await send({ method: 'GET', url: '/' })).body, '[{"id":"2","name":"Emma"}]');
    // Unknown id → 404 for GET, PUT and DELETE
    for (const method of ['GET', 'PUT', 'DELETE']) {
      res = await send({ method, url: '/1/', form: 'name=x', headers: ACCEPT_JSON });
      assert.equal(res.status, 404, `${method} ${how}`);
      assert.deepEqual(JSON.parse(res.body), { code: 404, title: 'Not Found', description: 'No book with id "1".' });
    }
  });
});

test('spec D: name is required on POST and PUT (400); other methods → 405 with Allow', async () => {
  await bothWays(collectionApp, async (send) => {
    let res = await send({ method: 'POST', url: '/', form: '', headers: ACCEPT_JSON });
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.body).description, 'Missing required parameter "name".');
    res = await send({ method: 'POST', url: '/', form: 'name=', headers: ACCEPT_JSON });
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.body).description, 'A non-empty "name" is required.');
    res = await send({ method: 'POST', url: '/', form: 'name=a&name=b' });
    assert.equal(res.status, 400);
    await send({ method: 'POST', url: '/', form: 'name=Dune' });
    res = await send({ method: 'PUT', url: '/1/', form: '' });
    assert.equal(res.status, 400);
    res = await send({ method: 'PATCH', url: '/1/' });
    assert.equal(res.status, 405);
    assert.equal(res.headers['allow'], 'GET, HEAD, PUT, DELETE, OPTIONS');
    res = await send({ method: 'DELETE', url: '/' });
    assert.equal(res.status, 405);
    assert.equal(res.headers['allow'], 'GET, HEAD, POST, OPTIONS');
    res = await send({ method: 'OPTIONS', url: '/' });
    assert.equal(res.status, 204);
    assert.equal(res.headers['allow'], 'GET, HEAD, POST, OPTIONS');
    res = await send({ method: 'HEAD', url: '/1/' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '');
    // /<id> without the slash: the item's index is canonical with a slash.
    res = await send({ method: 'GET', url: '/1' });
    assert.equal(res.status, 302);
    assert.equal(res.headers['location'], '/1/');
    // A when() handler is not addressable by its name.
    assert.equal((await send({ method: 'GET', url: '/index_post' })).status, 404);
  });
});

test('spec D, the uuid example: GET / → a JSON object; POST / with form variables → an object with a uuid', async () => {
  await bothWays(
    () => createKernel({ root: new GenericItemsController(), logger: false }).use(dispatchPlugin),
    async (send) => {
      let res = await send({ method: 'GET', url: '/' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], JSON_TYPE);
      assert.deepEqual(JSON.parse(res.body), { items: [] });
      res = await send({ method: 'POST', url: '/', form: 'color=red&size=2' });
      assert.equal(res.status, 200);
      const created = JSON.parse(res.body);
      assert.equal(typeof created.uuid, 'string');
      assert.match(created.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual(created.fields, { color: 'red', size: '2' });
      assert.deepEqual(JSON.parse((await send({ method: 'GET', url: '/' })).body), { items: [created] });
    },
  );
});
