// Headers that plugins set are kept on error responses: a request id, CORS or security-headers
// plugin covers 404s and 500s too, while the headers that describe a body are replaced.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definePlugin, Response, response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';

const requestId = definePlugin({
  name: 'request-id',
  apply(kernel) {
    kernel.hooks.beforeRoute.tap('request-id', (_request, res) => {
      res.headers['X-Request-Id'] = 'req-1';
    });
    kernel.hooks.onAbort.tap('request-id', (_error, _request, res) => {
      res.headers['X-Seen-By'] = 'onAbort';
      return undefined;
    });
    kernel.hooks.onError.tap('request-id', (_error, _request, res) => {
      res.headers['X-Seen-By'] = 'onError';
      return undefined;
    });
  },
});

class Tagged extends Response {
  constructor() {
    super();
    this.headers['X-Frame-Options'] = 'DENY';
  }
}

class Root {
  @expose() index() {
    return 'ok';
  }
  @expose() boom() {
    response.headers['Content-Type'] = 'text/csv';
    response.headers['Content-Disposition'] = 'attachment; filename="a.csv"';
    response.headers['Set-Cookie'] = 'seen=1';
    throw new Error('the handler fails on purpose');
  }
  @expose() page404() {
    return '<h1>custom 404</h1>';
  }
}

test('headers set before an error stay on 200, 404, 500 and error pages; body headers are replaced', async () => {
  const app = createApp({ root: new Root(), response_cls: Tagged, logger: false }).use(requestId);
  try {
    const ok = await app.inject('/');
    assert.equal(ok.headers['x-request-id'], 'req-1');
    assert.equal(ok.headers['x-frame-options'], 'DENY');

    const missing = await app.inject('/no/such/page');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['x-request-id'], 'req-1');
    assert.equal(missing.headers['x-frame-options'], 'DENY');
    assert.equal(missing.headers['x-seen-by'], 'onAbort');
    assert.equal(missing.headers['content-type'], 'text/html; charset=utf-8');

    const failed = await app.inject('/boom');
    assert.equal(failed.statusCode, 500);
    assert.equal(failed.headers['x-request-id'], 'req-1');
    assert.equal(failed.headers['x-frame-options'], 'DENY');
    assert.equal(failed.headers['x-seen-by'], 'onError');
    assert.equal(failed.headers['set-cookie'], undefined, 'what the failed handler began is not committed');
    assert.equal(failed.headers['content-type'], 'text/html; charset=utf-8', 'the page is HTML, not the CSV the handler promised');
    assert.equal(failed.headers['content-disposition'], undefined);
    assert.match(failed.body, /<title>500 Internal Server Error<\/title>/);
  } finally {
    await app.close();
  }
});

test('an error document keeps the headers set before the error', async () => {
  const app = createApp({ root: new Root(), response_cls: Tagged, logger: false, errors: { 404: '/page404' } }).use(requestId);
  try {
    const res = await app.inject('/missing');
    assert.equal(res.statusCode, 404);
    assert.equal(res.body, '<h1>custom 404</h1>');
    assert.equal(res.headers['x-request-id'], 'req-1');
    assert.equal(res.headers['x-frame-options'], 'DENY');
  } finally {
    await app.close();
  }
});
