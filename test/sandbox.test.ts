import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSandbox } from '@hickory/sandbox/app';

test('the sandbox serves the catalog example of the spec', async () => {
  const app = await createSandbox();
  const cases: Array<[string, number, RegExp]> = [
    ['/', 200, /<h1>Hickory sandbox<\/h1>/],
    ['/hours', 200, /^Open 9-5/],
    ['/catalog/', 200, /<h1>Catalog<\/h1>/],
    ['/catalog/books/', 200, /<h1>Books<\/h1>/],
    ['/catalog/books/bestsellers', 200, /<h1>Bestsellers<\/h1>/],
    ['/opening-times', 200, /^Open 9-5/],
    ['/catalog/new-arrivals/', 200, /<h1>New arrivals<\/h1>/],
    ['/openingTimes', 404, /Not Found/],
  ];
  for (const [url, status, body] of cases) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, status, url);
    assert.match(res.body, body, url);
  }
  const canonical = await app.inject('/catalog?x=1');
  assert.equal(canonical.statusCode, 302);
  assert.equal(canonical.headers.location, '/catalog/?x=1');
  const json = await app.inject('/catalog/books/index.json');
  assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
  assert.deepEqual(json.json(), [{ id: '1', name: 'Dune' }, { id: '2', name: 'Emma' }]);
  await app.close();
});
