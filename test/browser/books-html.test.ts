// The HTML/JSON contract of the sandbox's /books/ that the Chromium suites rely on, checked
// in-process (no browser needed, so it runs everywhere).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSandbox } from '@hickory/sandbox/app';
import { prefersHtml } from '@hickory/sandbox/controllers/books';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

test('prefersHtml: browsers yes; no Accept, */*, JSON first or equal weights no', () => {
  const cases: Array<[string | undefined, boolean]> = [
    [BROWSER_ACCEPT, true],
    ['text/html', true],
    ['text/*, application/json;q=0.5', true],
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['application/json, text/html;q=0.9', false],
    ['text/html, application/json', false],
    ['text/html;q=0, */*', false],
    ['text/html;q=abc, application/json;q=0.1', false],
  ];
  for (const [accept, expected] of cases) assert.equal(prefersHtml(accept), expected, String(accept));
});

test('/books/: HTML pages by default, JSON when asked; forms from a browser end in a 303 to the list', async () => {
  const app = await createSandbox({ logger: false });
  try {
    const post = (url: string, payload: string, accept?: string) =>
      app.inject({ method: 'POST', url, headers: { 'content-type': FORM, ...(accept === undefined ? {} : { accept }) }, payload });

    let res = await post('/books/', 'name=Dune', BROWSER_ACCEPT);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/books/');
    assert.equal(res.body, '');
    for (const accept of [undefined, '*/*', 'application/json']) {
      res = await post('/books/', 'name=Emma', accept);
      assert.equal(res.statusCode, 200, String(accept));
      assert.equal(res.headers['content-type'], JSON_TYPE);
      assert.match(res.body, /^\{"id":"[234]","name":"Emma"\}$/);
    }

    res = await app.inject({ url: '/books/', headers: { accept: BROWSER_ACCEPT } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], HTML_TYPE);
    assert.match(res.body, /<title>Books · Hickory<\/title>/);
    assert.match(res.body, /<tr data-id="1">\n\s+<td>1<\/td>\n\s+<td><a href="\/books\/1">Dune<\/a><\/td>/);
    assert.equal((await app.inject('/books/')).headers['content-type'], HTML_TYPE);
    const list = '[{"id":"1","name":"Dune"},{"id":"2","name":"Emma"},{"id":"3","name":"Emma"},{"id":"4","name":"Emma"}]';
    for (const [url, accept] of [['/books/', 'application/json'], ['/books.json', BROWSER_ACCEPT]] as const) {
      res = await app.inject({ url, headers: { accept } });
      assert.equal(res.headers['content-type'], JSON_TYPE, url);
      assert.equal(res.body, list, url);
    }
    res = await app.inject({ url: '/books/1.json' });
    assert.equal(res.body, '{"id":"1","name":"Dune"}');
    res = await app.inject({ url: '/books/1' });
    assert.equal(res.headers['content-type'], HTML_TYPE);
    assert.match(res.body, /<h1>Dune<\/h1>/);

    res = await post('/books/2', '_method=put&name=Persuasion', BROWSER_ACCEPT);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/books/');
    res = await post('/books/3', '_method=delete', BROWSER_ACCEPT);
    assert.equal(res.statusCode, 303);
    res = await post('/books/4', '_method=delete');
    assert.equal(res.body, '{}');
    res = await app.inject({ url: '/books/', headers: { accept: 'application/json' } });
    assert.equal(res.body, '[{"id":"1","name":"Dune"},{"id":"2","name":"Persuasion"}]');

    // A form sent without a name: the browser sees the HTML error page (the site's, config errors), not a redirect.
    res = await post('/books/', 'name=+', BROWSER_ACCEPT);
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers['content-type'], HTML_TYPE);
    assert.match(res.body, /<h1>400 · Bad Request<\/h1>\n<p>A non-empty &#34;name&#34; is required\.<\/p>/);
    assert.match(res.body, /<link rel="stylesheet" href="\/style\.css">/);
  } finally {
    await app.close();
  }
});
