import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, Response } from './index.ts';
import { withCharset } from './response.ts';
import { handle } from './fixtures/harness.ts';

test('status accepts integers from 100 to 599 and refuses the rest', () => {
  const res = new Response();
  assert.equal(res.status, 200);
  res.status = 418;
  assert.equal(res.status, 418);
  for (const bad of [99, 600, 200.5, Number.NaN, '200' as unknown as number]) {
    assert.throws(() => (res.status = bad), { code: 'HICKORY_ERR_STATUS' });
  }
  assert.throws(() => new Response('x', 1000), { code: 'HICKORY_ERR_STATUS' });
  assert.equal(res.status, 418);
});

test('new Response(body, status) and new Response({ body, status, headers, content_type })', () => {
  const a = new Response('Not yours', 403);
  assert.equal(a.status, 403);
  assert.equal(a.text, 'Not yours');
  const b = new Response({ body: 'a,b\n', status: 201, headers: { 'Content-Type': 'text/csv', 'X-Count': 2 } });
  assert.equal(b.status, 201);
  assert.equal(b.text, 'a,b\n');
  assert.equal(b.headers['content-type'], 'text/csv');
  assert.equal(b.headers['x-count'], '2');
  const c = new Response({ content_type: 'text/plain' });
  assert.equal(c.headers['Content-Type'], 'text/plain; charset=utf-8');
  assert.equal(c.body, null);
  assert.equal(c.hasBody, false);
  const d = new Response(Buffer.from('bytes'));
  assert.equal(d.text, 'bytes');
  assert.equal(new Response(null, 204).status, 204);
  assert.equal(new Response().status, 200);
});

test('text, body and json', () => {
  const res = new Response();
  res.text = 'héllo';
  assert.equal(res.body, 'héllo');
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  res.body = new Uint8Array([104, 105]);
  assert.equal(res.text, 'hi');
  const json = new Response();
  json.json = { a: [1, 2] };
  assert.equal(json.body, '{"a":[1,2]}');
  assert.equal(json.headers['Content-Type'], 'application/json; charset=utf-8');
  assert.deepEqual(json.json, { a: [1, 2] });
  json.json = undefined;
  assert.equal(json.body, 'null');
  const typed = new Response();
  typed.content_type = 'text/plain';
  typed.text = 'kept';
  assert.equal(typed.headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal(new Response().text, '');
});

test('content_type reads the media type and adds a charset to text types', () => {
  const res = new Response();
  assert.equal(res.content_type, undefined);
  res.content_type = 'text/csv';
  assert.equal(res.content_type, 'text/csv');
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  res.content_type = 'image/png';
  assert.equal(res.headers['content-type'], 'image/png');
  res.content_type = 'text/plain; charset=latin1';
  assert.equal(res.content_type, 'text/plain');
  assert.equal(res.headers['content-type'], 'text/plain; charset=latin1');
  res.content_type = undefined;
  assert.equal(res.headers['content-type'], undefined);
  assert.equal(withCharset('application/ld+json'), 'application/ld+json; charset=utf-8');
});

test('app_iter and body exclude each other', () => {
  const res = new Response('text');
  res.app_iter = ['a', 'b'];
  assert.equal(res.body, null);
  assert.equal(res.hasBody, true);
  res.body = 'again';
  assert.equal(res.app_iter, undefined);
});

test('status, text, json and content_type through a request', async () => {
  const app = createKernel({ logger: false }).use(
    handle((req, res) => {
      switch (req.path) {
        case '/text':
          res.status = 202;
          res.text = 'accepted';
          return undefined;
        case '/json':
          res.json = { ok: true };
          return undefined;
        case '/csv':
          res.content_type = 'text/csv';
          res.body = 'a,b\n';
          return undefined;
        case '/empty':
          return undefined;
        case '/empty-string':
          return '';
        default:
          res.status = 201;
          return undefined;
      }
    }),
  );
  let res = await app.inject('/text');
  assert.equal(res.statusCode, 202);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.body, 'accepted');
  res = await app.inject('/json');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.headers['content-length'], '11');
  assert.equal(res.body, '{"ok":true}');
  res = await app.inject('/csv');
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.equal(res.body, 'a,b\n');
  res = await app.inject('/empty');
  assert.equal(res.statusCode, 204);
  assert.equal(res.headers['content-length'], undefined);
  assert.equal(res.body, '');
  // An empty string is no body either (Pecan): 204.
  res = await app.inject('/empty-string');
  assert.equal(res.statusCode, 204);
  assert.equal(res.headers['content-length'], undefined);
  res = await app.inject('/created');
  assert.equal(res.statusCode, 201);
  assert.equal(res.headers['content-length'], '0');
  assert.equal(res.body, '');
  await app.close();
});

test('204 and 304 never carry a body or a Content-Length', async () => {
  const app = createKernel({ logger: false }).use(
    handle((req, res) => {
      res.status = Number(req.path.slice(1));
      res.headers['Content-Length'] = '5';
      res.headers['ETag'] = '"v1"';
      return 'stray';
    }),
  );
  const { url } = await app.listen({ port: 0 });
  for (const status of [204, 304]) {
    const res = await fetch(`${url}/${status}`);
    assert.equal(res.status, status);
    assert.equal(res.headers.get('content-length'), null);
    assert.equal(res.headers.get('etag'), '"v1"');
    assert.equal(await res.text(), '');
  }
  await app.close();
});
