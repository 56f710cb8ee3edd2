import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose, when } from '@hickory/dispatch';

// Sends the path exactly as written (fetch would normalize dot segments).
function get(base: string, path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('through a real socket: routing, dot segments as data, bad input answered and the server still serving', async () => {
  const ran: string[] = [];
  class Books {
    @expose() index() { return 'books'; }
    @expose() secret() { ran.push('secret'); return 'secret'; }
  }
  class Root {
    books = new Books();
    @expose() index() { return 'home'; }
    @expose() echo(value: string) { return `[${value}]`; }
    @expose({ generic: true, template: 'json' }) items() { return ['a']; }
    @when('items', { method: 'POST' }) add() { return { added: true }; }
  }
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin);
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  assert.equal((await get(url, '/')).body, 'home');
  assert.equal((await get(url, '/books/')).body, 'books');
  const redirect = await get(url, '/books?x=1');
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers['location'], '/books/?x=1');
  assert.equal((await get(url, '/echo/%2E%2E')).body, '[..]');
  assert.equal((await get(url, '/echo/%2e%2e%2fbooks%2fsecret')).body, '[../books/secret]');
  assert.equal((await get(url, '/books/%2E%2E/books/secret')).status, 404);
  assert.equal((await get(url, '/books/../books/index')).status, 404);
  assert.equal((await get(url, '/constructor/constructor')).status, 404);
  assert.equal((await get(url, '/__proto__/x')).status, 404);
  assert.equal((await get(url, '/echo/%00')).status, 400);
  assert.equal((await get(url, '/echo/%E0%A4%A')).status, 400);
  assert.equal((await get(url, `/${'a/'.repeat(64)}a`)).status, 414);
  const notAllowed = await get(url, '/items', 'DELETE');
  assert.equal(notAllowed.status, 405);
  assert.equal(notAllowed.headers['allow'], 'GET, HEAD, POST, OPTIONS');
  const head = await get(url, '/items', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assert.equal(head.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal((await get(url, '/items', 'POST')).body, '{"added":true}');
  assert.deepEqual(ran, []);
  assert.equal((await get(url, '/')).status, 200);
  await app.close();
});
