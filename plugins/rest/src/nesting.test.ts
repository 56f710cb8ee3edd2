import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { RestController, restPlugin } from './index.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

class Chapters extends RestController {
  @expose('json') get_all(author_id: string, book_id: string) { return { chapters_of: [author_id, book_id] }; }
  @expose('json') get_one(author_id: string, book_id: string, id: string) { return { chapter: [author_id, book_id, id] }; }
  @expose('json') post(author_id: string, book_id: string, title: string) { return { created: [author_id, book_id, title] }; }
}

class Books extends RestController {
  chapters = new Chapters();
  @expose('json') get_all(author_id: string) { return { books_of: author_id }; }
  @expose('json') get_one(author_id: string, id: string) { return { book: [author_id, id] }; }
  @expose() edit(author_id: string, id: string) { return `edit ${author_id}/${id}`; }
  @expose('json') post(author_id: string, name: string) { return { created: [author_id, name] }; }
  @expose('json') put(author_id: string, id: string, name: string) { return { put: [author_id, id, name] }; }
  @expose('json') delete(author_id: string, id: string) { return { deleted: [author_id, id] }; }
}

class Authors extends RestController {
  books = new Books();
  @expose('json') get_all() { return { authors: true }; }
  @expose('json') get_one(id: string) { return { author: id }; }
}

function app() {
  return createKernel({ root: { authors: new Authors() }, logger: false }).use(restPlugin);
}

test('a child resource gets the parent ids first: GET /authors/1/books/2 → get_one("1", "2")', async () => {
  const a = app();
  assert.equal((await a.inject('/authors/')).body, '{"authors":true}');
  assert.equal((await a.inject('/authors/1')).body, '{"author":"1"}');
  assert.equal((await a.inject('/authors/1/books/')).body, '{"books_of":"1"}');
  assert.equal((await a.inject('/authors/1/books')).body, '{"books_of":"1"}');
  assert.equal((await a.inject('/authors/1/books/2')).body, '{"book":["1","2"]}');
  assert.equal((await a.inject('/authors/1/books/2/edit')).body, 'edit 1/2');
  await a.close();
});

test('three levels deep', async () => {
  const a = app();
  assert.equal((await a.inject('/authors/1/books/2/chapters/')).body, '{"chapters_of":["1","2"]}');
  assert.equal((await a.inject('/authors/1/books/2/chapters/3')).body, '{"chapter":["1","2","3"]}');
  const post = await a.inject({ method: 'POST', url: '/authors/1/books/2/chapters/', headers: FORM, payload: 'title=One' });
  assert.equal(post.body, '{"created":["1","2","One"]}');
  await a.close();
});

test('nested POST, PUT, DELETE, and _method overrides', async () => {
  const a = app();
  const post = await a.inject({ method: 'POST', url: '/authors/1/books/', headers: FORM, payload: 'name=Dune' });
  assert.equal(post.body, '{"created":["1","Dune"]}');
  const put = await a.inject({ method: 'PUT', url: '/authors/1/books/2', headers: FORM, payload: 'name=Emma' });
  assert.equal(put.body, '{"put":["1","2","Emma"]}');
  const del = await a.inject({ method: 'DELETE', url: '/authors/1/books/2' });
  assert.equal(del.body, '{"deleted":["1","2"]}');
  const viaForm = await a.inject({ method: 'POST', url: '/authors/1/books/2', headers: FORM, payload: '_method=put&name=X' });
  assert.equal(viaForm.body, '{"put":["1","2","X"]}');
  const viaQuery = await a.inject({ method: 'POST', url: '/authors/1/books/2?_method=delete' });
  assert.equal(viaQuery.body, '{"deleted":["1","2"]}');
  await a.close();
});

test('a missing intermediate id → 404 for GET; other verbs reach the nested resource and miss a parameter (400)', async () => {
  const a = app();
  assert.equal((await a.inject('/authors/books/')).statusCode, 404);
  assert.equal((await a.inject('/authors/books/2')).statusCode, 404);
  assert.equal((await a.inject('/authors/1/books/chapters/')).statusCode, 404);
  // Right after its parent the nested resource is reached (as Pecan), without the author's id.
  const post = await a.inject({ method: 'POST', url: '/authors/books/', headers: { accept: 'application/json' } });
  assert.equal(post.statusCode, 400);
  assert.equal(post.json().description, 'Missing required parameter "author_id".');
  await a.close();
});

test('405 and OPTIONS in a nested resource list what that resource answers', async () => {
  const a = app();
  const res = await a.inject({ method: 'PATCH', url: '/authors/1/books/2' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers['allow'], 'GET, HEAD, PUT, DELETE, OPTIONS');
  const options = await a.inject({ method: 'OPTIONS', url: '/authors/1/books/' });
  assert.equal(options.statusCode, 204);
  assert.equal(options.headers['allow'], 'GET, HEAD, POST, OPTIONS');
  const put = await a.inject({ method: 'PUT', url: '/authors/1' });
  assert.equal(put.statusCode, 405);
  assert.equal(put.headers['allow'], 'GET, HEAD, OPTIONS');
  await a.close();
});

test('ids and child names are decoded path segments (unicode works)', async () => {
  class Kapitel extends RestController {
    @expose('json') get_one(book: string, id: string) { return { book, id }; }
  }
  class Bücher extends RestController {
    'kapitel-ü' = new Kapitel();
    @expose('json') get_one(id: string) { return { id }; }
  }
  const a = createKernel({ root: { 'bücher': new Bücher() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/b%C3%BCcher/caf%C3%A9')).body, '{"id":"café"}');
  assert.equal((await a.inject('/b%C3%BCcher/a%2Fb')).body, '{"id":"a/b"}');
  assert.equal((await a.inject('/b%C3%BCcher/%E2%9C%93/kapitel-%C3%BC/%F0%9F%93%96')).body, '{"book":"✓","id":"📖"}');
  await a.close();
});

test('a rest parameter in the parent takes every segment up to the child name', async () => {
  class Leaves extends RestController {
    @expose('json') get_all(...path: string[]) { return { path }; }
    @expose('json') get_one(...path: string[]) { return { one: path }; }
  }
  class Tree extends RestController {
    leaves = new Leaves();
    @expose('json') get(...path: string[]) { return { tree: path }; }
  }
  const a = createKernel({ root: { tree: new Tree() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/tree/a/b/c')).body, '{"tree":["a","b","c"]}');
  assert.equal((await a.inject('/tree/a/b/leaves/')).body, '{"path":["a","b"]}');
  assert.equal((await a.inject('/tree/leaves/')).body, '{"path":[]}');
  assert.equal((await a.inject('/tree/a/leaves/x')).body, '{"one":["a","x"]}');
  await a.close();
});

test('one controller mounted at the top level and nested with an optional parent id works in both places', async () => {
  const BOOKS = [{ id: '1', author: 'a' }, { id: '2', author: 'b' }];
  class Books extends RestController {
    @expose('json') get_all(author_id: string | undefined = undefined) {
      return BOOKS.filter((b) => author_id === undefined || b.author === author_id).map((b) => b.id);
    }
    @expose('json') get_one(...ids: string[]) { return { ids }; }
  }
  const books = new Books();
  class Authors extends RestController {
    books = books;
    @expose('json') get_one(id: string) { return { author: id }; }
  }
  const a = createKernel({ root: { books, authors: new Authors() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/books/')).body, '["1","2"]');
  assert.equal((await a.inject('/books/2')).body, '{"ids":["2"]}');
  assert.equal((await a.inject('/authors/a/books/')).body, '["1"]');
  assert.equal((await a.inject('/authors/b/books/2')).body, '{"ids":["b","2"]}');
  // Back at the top level, no parent id lingers from the nested request before.
  assert.equal((await a.inject('/books/')).body, '["1","2"]');
  assert.equal((await a.inject('/books/?author_id=b')).body, '["2"]');
  await a.close();
});

test('an optional id window: get_one(parent, id = undefined) finds the child after one or two segments', async () => {
  class Notes extends RestController {
    @expose('json') get_all(...ids: string[]) { return { ids }; }
  }
  class Items extends RestController {
    notes = new Notes();
    @expose('json') get_one(a: string, b: string | undefined = undefined) { return { a, b: b ?? null }; }
  }
  const a = createKernel({ root: { items: new Items() }, logger: false }).use(restPlugin);
  assert.equal((await a.inject('/items/1/notes/')).body, '{"ids":["1"]}');
  assert.equal((await a.inject('/items/1/2/notes/')).body, '{"ids":["1","2"]}');
  assert.equal((await a.inject('/items/1/2')).body, '{"a":"1","b":"2"}');
  // Named right after the parent, the nested resource is reached without the ids (as Pecan).
  assert.equal((await a.inject('/items/notes/')).body, '{"ids":[]}');
  await a.close();
});

test('concurrent nested requests keep their own parent ids', async () => {
  const a = app();
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => a.inject(`/authors/${i}/books/${i * 2}`)));
  results.forEach((res, i) => assert.equal(res.body, JSON.stringify({ book: [String(i), String(i * 2)] })));
  await a.close();
});
