// Contract v2, responses: Pecan's `return response` download idiom, and an empty 200 → 204.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { response } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { createApp } from '@hickory/app';

class Root {
  @expose() download() {
    response.app_iter = Readable.from(['a,b\n', '1,2\n']);
    response.content_type = 'text/csv';
    response.headers['Content-Length'] = '8';
    response.headers['Content-Disposition'] = 'attachment; filename="t.csv"';
    return response;
  }
  @expose('json') jsonDownload() {
    response.app_iter = Readable.from(['{"a":1}']);
    response.content_type = 'application/json';
    return response;
  }
  @expose() status() {
    response.status = 201;
    response.text = 'made';
    return response;
  }
  @expose() emptyText() {
    response.text = '';
    return '';
  }
  @expose() emptyString() {
    return '';
  }
  @expose() emptyCreated() {
    response.status = 201;
    return '';
  }
}

test('a handler returning the current response sends it as set (no recursion)', async () => {
  const app = createApp({ root: new Root(), logger: false });
  try {
    const csv = await app.inject('/download');
    assert.equal(csv.statusCode, 200);
    assert.equal(csv.body, 'a,b\n1,2\n');
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(csv.headers['content-length'], '8');
    assert.equal(csv.headers['content-disposition'], 'attachment; filename="t.csv"');
    const json = await app.inject('/jsonDownload');
    assert.equal(json.body, '{"a":1}');
    const made = await app.inject('/status');
    assert.equal(made.statusCode, 201);
    assert.equal(made.body, 'made');
  } finally {
    await app.close();
  }
});

test('status 200 with an empty body → 204 (Pecan); another status keeps its own', async () => {
  const app = createApp({ root: new Root(), logger: false });
  try {
    for (const path of ['/emptyText', '/emptyString']) {
      const res = await app.inject(path);
      assert.equal(res.statusCode, 204, path);
      assert.equal(res.body, '');
      assert.equal(res.headers['content-length'], undefined, path);
    }
    const created = await app.inject('/emptyCreated');
    assert.equal(created.statusCode, 201);
    assert.equal(created.headers['content-length'], '0');
  } finally {
    await app.close();
  }
});
