// One reading of `Accept` for content negotiation (dispatch) and default error bodies (the
// kernel): a header means the same to both. And when the client states no preference
// (`Accept: *\/*`, or none, as curl and fetch send), an error takes the handler's own rendering.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createApp, expose } from '@hickory/app';

class Books {
  @expose('json') @expose() page() { return { page: 'html or json' }; }
  @expose('json') save(name: string) { return { name }; }
  @expose('json') conflict() { return abort(409, 'That book is already on loan.'); }
  @expose() html_conflict() { return abort(409, 'That book is already on loan.'); }
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

test('a media range with parameters (application/json;discard=me) is JSON to negotiation and to error bodies alike', async () => {
  const app = createApp({ root: new Books(), logger: false });
  try {
    const accept = 'application/json;discard=me';
    const page = await app.inject({ url: '/page', headers: { accept } });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-type'], JSON_TYPE);
    // No handler at all: the kernel's error body, chosen by the same parser.
    const missing = await app.inject({ url: '/no-such-page', headers: { accept } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['content-type'], JSON_TYPE);
    assert.equal(missing.json().code, 404);
    // The same header with a q: both still read it.
    const weighted = await app.inject({ url: '/no-such-page', headers: { accept: 'text/html;level=1;q=0.2, application/json;discard=me;q=0.9' } });
    assert.equal(weighted.headers['content-type'], JSON_TYPE);
  } finally {
    await app.close();
  }
});

test('with no stated preference an error takes the handler\'s rendering; a stated one wins', async () => {
  const app = createApp({ root: new Books(), logger: false });
  try {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'text/html, application/json' }]) {
      const json = await app.inject({ url: '/conflict', headers });
      assert.equal(json.statusCode, 409, JSON.stringify(headers));
      assert.equal(json.headers['content-type'], JSON_TYPE, JSON.stringify(headers));
      assert.deepEqual(json.json(), { code: 409, title: 'Conflict', description: 'That book is already on loan.' });
      const html = await app.inject({ url: '/html_conflict', headers });
      assert.equal(html.statusCode, 409);
      assert.equal(html.headers['content-type'], HTML_TYPE, JSON.stringify(headers));
    }
    // A browser asks for HTML: it gets the page even from a JSON handler.
    const browser = await app.inject({ url: '/conflict', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(browser.headers['content-type'], HTML_TYPE);
    assert.match(browser.body, /<h1>409 Conflict<\/h1>/);
  } finally {
    await app.close();
  }
});

test('an error reading the body (413) of a JSON-only handler answers JSON to a client with no stated preference', async () => {
  const app = createApp({ root: new Books(), logger: false, body_limit: 64 });
  try {
    for (const headers of [{}, { accept: '*/*' }]) {
      const tooBig = await app.inject({ method: 'POST', url: '/save', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(200) }) });
      assert.equal(tooBig.statusCode, 413);
      assert.equal(tooBig.headers['content-type'], JSON_TYPE);
      assert.equal(tooBig.json().code, 413);
    }
  } finally {
    await app.close();
  }
});
