// A response schema on a RestController handler: REST routes through the call stage (callSelected), and its JSON
// answer is written by the handler's compiled serializer (what the benchmark's REST route uses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, expose, RestController } from '@hickory/app';
import { z } from 'zod';

const Book = z.object({ id: z.string(), name: z.string() });

class BooksController extends RestController {
  @expose('json', { response: Book }) get_one(id: string) { return { id, name: `Book ${id}`, shelf: 'B2' }; }
  @expose('json') get_all() { return [{ id: '1', name: 'Book 1', shelf: 'B2' }]; }
}

class Root {
  books = new BooksController();
}

test('a RestController handler with a response schema sends only what it declares; one without sends everything', async () => {
  const app = createApp({ root: new Root(), logger: false });
  const one = await app.inject('/books/42');
  assert.equal(one.statusCode, 200);
  assert.equal(one.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(one.body, '{"id":"42","name":"Book 42"}');
  assert.equal((await app.inject('/books/')).body, '[{"id":"1","name":"Book 1","shelf":"B2"}]');
  await app.close();
});
