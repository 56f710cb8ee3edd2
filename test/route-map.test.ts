// The route map of the showcase (hickory routes / routeMap), as a snapshot: a route that appears or
// disappears here is a change to the showcase's URL space, to be reviewed (a TypeScript `private`
// field once made /shelf/books/ a second way into /books/).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routeMap } from '@hickory/dispatch';
import { createSandbox } from '@hickory/sandbox/app';
import { run } from './fixtures/cli/harness.ts';

// One route as the snapshot writes it; `secured`: a `secure` check runs before it answers.
function line(r: { methods: readonly string[]; path: string; handler: string; secured?: true }): string {
  return `${r.methods.join(',')} ${r.path} ${r.handler}${r.secured ? ' secured' : ''}`;
}

const EXPECTED = [
  "ANY / RootController.index",
  "ANY /index RootController.index",
  "ANY /hours RootController.hours",
  "ANY /opening-times RootController.openingTimes",
  "ANY /catalog/ CatalogController.index",
  "ANY /catalog/index CatalogController.index",
  "GET,HEAD /books/ BooksController.get_all",
  "GET,HEAD /books/new BooksController.new",
  "GET,HEAD /books/{id} BooksController.get_one",
  "GET,HEAD /books/{id}/edit BooksController.edit",
  "GET,HEAD /books/{id}/delete BooksController.get_delete",
  "POST /books/ BooksController.post",
  "PUT /books/{id} BooksController.put",
  "DELETE /books/{id} BooksController.delete",
  "POST /books/{id}/checkout BooksController.checkout",
  "GET,HEAD /authors/ AuthorsController.get_all",
  "GET,HEAD /authors/{id} AuthorsController.get_one",
  "GET,HEAD,POST,OPTIONS /store/ GenericBooksController.index",
  "GET,HEAD,POST,OPTIONS /store/index GenericBooksController.index",
  "ANY /store/* GenericBooksController._lookup",
  "GET,HEAD,POST,OPTIONS /items/ GenericItemsController.index",
  "GET,HEAD,POST,OPTIONS /items/index GenericItemsController.index",
  "GET,HEAD,POST,OPTIONS /library/ LibraryController.index",
  "GET,HEAD,POST,OPTIONS /library/index LibraryController.index",
  "ANY /library/write_then_fail LibraryController.write_then_fail",
  "GET,HEAD,OPTIONS /live/ LiveController.index",
  "GET,HEAD,OPTIONS /live/index LiveController.index",
  "GET,HEAD,OPTIONS /live/events LiveController.events",
  "ANY /admin/ AdminController.index secured",
  "ANY /admin/index AdminController.index secured",
  "ANY /admin/delete AdminController.delete secured",
  "ANY /admin/logout AdminController.logout secured",
  "GET,HEAD,POST,OPTIONS /admin/login AdminController.login",
  "GET,HEAD,POST,OPTIONS /files/ FilesController.index",
  "GET,HEAD,POST,OPTIONS /files/index FilesController.index",
  "ANY /files/download FilesController.download",
  "ANY /pages/ PagesController.index",
  "ANY /pages/index PagesController.index",
  "ANY /pages/ejs PagesController.ejs",
  "ANY /pages/nunjucks PagesController.nunjucks",
  "ANY /pages/handlebars PagesController.handlebars",
  "ANY /status/ StatusController.index",
  "ANY /status/index StatusController.index",
  "ANY /status/forbidden StatusController.forbidden",
  "ANY /status/non-authoritative StatusController.nonAuthoritative",
  "ANY /status/teapot StatusController.teapot",
  "ANY /status/broken StatusController.broken",
  "ANY /error/404 ErrorController.notFound",
  "ANY /error/500 ErrorController.serverError",
  "ANY /error/other ErrorController.otherError",
  "ANY /catalog/books/ BooksController.index",
  "ANY /catalog/books/index BooksController.index",
  "ANY /catalog/books/bestsellers BooksController.bestsellers",
  "ANY /catalog/new-arrivals/ NewArrivalsController.index",
  "ANY /catalog/new-arrivals/index NewArrivalsController.index",
  "GET,HEAD /authors/{author_id}/books/ AuthorBooksController.get",
  "GET,HEAD /authors/{author_id}/books/{id} AuthorBooksController.get",
  "POST /authors/{author_id}/books/ AuthorBooksController.post",
];

test('the showcase\'s route map: every reachable route, nothing accidental', async () => {
  const app = await createSandbox({ logger: false });
  try {
    const routes = routeMap(app.root!);
    assert.deepEqual(routes.map(line), EXPECTED);
    const store = routes.find((r) => r.path === '/store/*')!;
    assert.deepEqual(store, { path: '/store/*', methods: ['ANY'], handler: 'GenericBooksController._lookup', renders: [], params: ['id', '...remainder'], dynamic: '_lookup' });
    const pages = routes.find((r) => r.path === '/pages/ejs')!;
    assert.deepEqual(pages.renders, ['ejs/page.ejs']);
    assert.deepEqual(pages.params, ['comment']);
  } finally {
    await app.close();
  }
});

test('hickory routes prints the same map as text and as JSON', async () => {
  const asJson = await run(['routes', 'sandbox/config.ts', '--json']);
  assert.equal(asJson.code, 0, asJson.stderr);
  const routes = JSON.parse(asJson.stdout) as Array<{ methods: string[]; path: string; handler: string }>;
  assert.deepEqual(routes.map(line), EXPECTED);
  const asText = await run(['routes', 'sandbox/config.ts']);
  assert.equal(asText.code, 0, asText.stderr);
  const lines = asText.stdout.trimEnd().split('\n');
  assert.equal(lines.length, EXPECTED.length);
  assert.match(lines[0]!, /^ANY\s+\/\s+RootController\.index\s+layout\/page\.ejs\s+\(\)$/);
  assert.match(asText.stdout, /\/store\/\*\s+GenericBooksController\._lookup\s+\(_lookup decides\)\s+\(id, \.\.\.remainder\)/);
  assert.match(asText.stdout, /\n[A-Z]+\s+\/admin\/logout\s+AdminController\.logout\s+text\/html\s+\(\)  secured\n/);
});
