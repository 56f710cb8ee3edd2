import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertHeaderValue, HeaderMap } from './header-map.ts';
import { createKernel, Response } from './index.ts';
import { handle } from './fixtures/harness.ts';

test('response.headers is case-insensitive and index-assignable', () => {
  const res = new Response();
  res.headers['Content-Disposition'] = 'attachment; filename="a.csv"';
  assert.equal(res.headers['content-disposition'], 'attachment; filename="a.csv"');
  assert.equal(res.headers['CONTENT-DISPOSITION'], 'attachment; filename="a.csv"');
  assert.ok('content-Disposition' in res.headers);
  res.headers['content-disposition'] = 'inline';
  assert.deepEqual(Object.keys(res.headers), ['Content-Disposition']);
  assert.deepEqual(Object.entries(res.headers), [['Content-Disposition', 'inline']]);
  assert.deepEqual([...res.headers], [['Content-Disposition', 'inline']]);
  delete res.headers['CONTENT-disposition'];
  assert.deepEqual(Object.keys(res.headers), []);
  res.headers['X-Number'] = 5 as unknown as string;
  assert.equal(res.headers['x-number'], '5');
  res.headers['X-Number'] = undefined;
  assert.equal('x-number' in res.headers, false);
  res.headers['Set-Cookie'] = ['a=1', 'b=2'];
  assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2']);
  assert.equal(Object.getPrototypeOf(res.headers), null);
  assert.equal(res.headers['constructor'], undefined);
  assert.equal(res.headers['__proto__'], undefined);
});

test('assigning an object replaces every header', () => {
  const res = new Response({ headers: { 'X-Old': '1', 'Content-Type': 'text/plain' } });
  res.headers = { 'X-New': '2' };
  assert.deepEqual(Object.entries(res.headers), [['X-New', '2']]);
});

test('header names must be tokens and values may not hold CR, LF or NUL', () => {
  const res = new Response();
  for (const value of ['a\r\nSet-Cookie: x=1', 'a\nb', 'a\rb', 'a\0b']) {
    assert.throws(() => (res.headers['X-Bad'] = value), { code: 'HICKORY_ERR_HEADER_VALUE' });
    assert.throws(() => new Response({ headers: { 'X-Bad': value } }), { code: 'HICKORY_ERR_HEADER_VALUE' });
  }
  assert.throws(() => (res.headers['X-Bad'] = ['ok', 'no\r\n']), { code: 'HICKORY_ERR_HEADER_VALUE' });
  assert.throws(() => (res.headers['Bad Name'] = 'v'), { code: 'HICKORY_ERR_HEADER_VALUE' });
  assert.throws(() => (res.headers['X-Obj'] = {} as unknown as string), { code: 'HICKORY_ERR_HEADER_VALUE' });
  assert.throws(() => assertHeaderValue('X:Y', 'v'), { code: 'HICKORY_ERR_HEADER_VALUE' });
  assert.deepEqual(Object.keys(res.headers), []);
});

test('HeaderMap append keeps earlier values', () => {
  const map = new HeaderMap();
  map.append('Vary', 'Accept');
  map.append('vary', 'Cookie');
  assert.deepEqual(map.get('VARY'), ['Accept', 'Cookie']);
  assert.deepEqual(map.toObject(), Object.assign(Object.create(null), { Vary: ['Accept', 'Cookie'] }));
});

test('HeaderMap setKnown replaces a header set in any case, keeping its place and first name', () => {
  const map = new HeaderMap();
  map.set('content-type', 'text/plain');
  map.set('X-Other', '1');
  map.setKnown('content-type', 'Content-Type', 'application/json; charset=utf-8');
  map.setKnown('content-length', 'Content-Length', '17');
  assert.deepEqual(map.toFlatArray(), ['content-type', 'application/json; charset=utf-8', 'X-Other', '1', 'Content-Length', '17']);
  assert.equal(map.get('CONTENT-LENGTH'), '17');
});

test('headers set by a handler reach the client; CR/LF in a header is a 500 without the header', async () => {
  const app = createKernel({ logger: false }).use(
    handle((req, res) => {
      res.headers['Content-Disposition'] = 'attachment; filename="a.csv"';
      res.headers['Set-Cookie'] = ['a=1', 'b=2'];
      if (req.path === '/split') res.headers['X-Evil'] = `x\r\nSet-Cookie: evil=1`;
      return 'a,b';
    }),
  );
  const { url } = await app.listen({ port: 0 });
  let res = await fetch(`${url}/`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="a.csv"');
  assert.deepEqual(res.headers.getSetCookie(), ['a=1', 'b=2']);
  res = await fetch(`${url}/split`);
  assert.equal(res.status, 500);
  assert.equal(res.headers.get('x-evil'), null);
  assert.deepEqual(res.headers.getSetCookie(), []);
  await app.close();
});
