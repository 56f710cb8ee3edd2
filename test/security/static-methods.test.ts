import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTable, type Case } from './harness.ts';

// A static file answers GET and HEAD; any other method on it used to be a 404, as if the file were
// not there. It is a 405 naming the methods, through inject and a raw socket alike.

const methodOnFile = (method: string): Case => ({
  name: `${method} /hello.txt → 405 with Allow: GET, HEAD`,
  method,
  target: '/hello.txt',
  headers: { accept: 'application/json' },
  body: method === 'POST' || method === 'PUT' ? 'x=1' : undefined,
  status: [405],
  check: (answer) => {
    assert.equal(answer.headers['allow'], 'GET, HEAD');
    assert.deepEqual(JSON.parse(answer.body), { code: 405, title: 'Method Not Allowed', description: 'The method is not allowed for this resource.' });
  },
});

const cases: Case[] = [
  ...['POST', 'PUT', 'DELETE', 'PATCH'].map(methodOnFile),
  { name: 'GET /hello.txt is served', target: '/hello.txt', status: [200] },
  { name: 'POST to a path that is no file stays a 404', method: 'POST', target: '/no-such-file.txt', status: [404] },
];

test('other methods on a static file: 405 with Allow', (t) => runTable(t, cases));
