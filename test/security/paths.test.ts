import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTable, type Answer, type Case } from './harness.ts';

// Bad paths: prototype member names at every level, encoded dots/slashes/backslashes/NUL,
// malformed escapes, overlong UTF-8, empty segments, too many segments, a 20 KB path and
// request targets that are not in origin-form.

const PROTOTYPE_NAMES = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
    'prototype',
    '_lookup',
    '_default',
    '_route',
    'then',
  ]),
].filter((name) => /^[\w$]+$/.test(name));

const notThere = (answer: Answer) => {
  assert.doesNotMatch(answer.body, /"name":\s*"hickory|"private":|root:x:0:0|compilerOptions/, 'a file outside the app leaked');
};

const cases: Case[] = [];

// Prototype member names as a segment of the root, a child, a `_lookup` holder and a plain
// controller, also followed by more segments and with an extension.
for (const name of PROTOTYPE_NAMES) {
  for (const prefix of ['', '/child', '/items', '/faults']) {
    cases.push({ name: `GET ${prefix}/${name}`, target: `${prefix}/${name}`, status: [404] });
  }
  cases.push({ name: `GET /${name}/x/y`, target: `/${name}/x/y`, status: [404] });
  cases.push({ name: `GET /child/${name}.json`, target: `/child/${name}.json`, status: [404] });
  cases.push({ name: `POST /${name}`, method: 'POST', target: `/${name}`, body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: [404] });
  // A REST id is data: any name is a valid id for get_one.
  cases.push({ name: `GET /books/${name}`, target: `/books/${name}`, status: [200], runs: ['books.get_one'] });
}
for (const name of ['__proto__', 'constructor', 'prototype']) {
  cases.push({ name: `GET /items/1/${name}`, target: `/items/1/${name}`, status: [404], runs: ['items.lookup'] });
  cases.push({ name: `GET /books/1/${name}`, target: `/books/1/${name}`, status: [404, 405] });
  cases.push({ name: `GET /%5f_proto__ (encoded)`, target: `/%5f_proto__`, status: [404] });
}

const traversal: Array<[string, number[]]> = [
  ['/..', [400, 404]],
  ['/../package.json', [400, 404]],
  ['/child/../../package.json', [400, 404]],
  ['/%2e%2e/package.json', [400, 404]],
  ['/%2e%2e%2fpackage.json', [400, 404]],
  ['/..%2f..%2fpackage.json', [400, 404]],
  ['/..%5c..%5cpackage.json', [400, 404]],
  ['/%2e%2e%5c%2e%2e%5cpackage.json', [400, 404]],
  ['/hello.txt%00', [400, 404]],
  ['/hello.txt%00.html', [400, 404]],
  ['/%00', [400, 404]],
  ['/child%00/', [400, 404]],
  ['/%2fetc%2fpasswd', [400, 404]],
  ['/\\..\\..\\package.json', [400, 404]],
  ['/.%2e/.%2e/package.json', [400, 404]],
  ['/%252e%252e/package.json', [400, 404]],
  ['/.env', [400, 404]],
  ['/child/%2e', [400, 404]],
  ['/%', [400]],
  ['/%zz', [400]],
  ['/child/%e', [400]],
  ['/%e0%80', [400, 404]],
  ['/%c0%ae%c0%ae/package.json', [400, 404]],
  ['/%c0%af', [400, 404]],
  ['/%ed%a0%80', [400, 404]],
  ['/%ff%fe', [400, 404]],
];
for (const [target, status] of traversal) {
  // light-my-request resolves dot segments and rejects some escapes itself; the raw bytes
  // reach the kernel only through the socket.
  cases.push({ name: `GET ${target}`, target, status, injectStatus: [...status, 200], injectRuns: ['root.index', 'child.index'], check: notThere });
}

cases.push(
  { name: 'GET // (empty segments)', target: '//', status: [200, 302, 400, 404], runs: ['root.index'] },
  { name: 'GET ///child', target: '///child', status: [302, 400, 404] },
  { name: 'GET /child//', target: '/child//', status: [200, 302, 400, 404], runs: ['child.index'] },
  { name: 'GET /child//info', target: '/child//info', status: [200, 400, 404], runs: ['child.info'] },
  { name: 'GET 64 segments under a _lookup', target: `/items/1${'/a'.repeat(62)}`, status: [404], runs: ['items.lookup'] },
  { name: 'GET 65 segments', target: '/a'.repeat(65), status: [414] },
  { name: 'GET 65 segments under a _lookup', target: `/items/1${'/a'.repeat(63)}`, status: [414] },
  { name: 'GET 10 000 segments', target: '/a'.repeat(10_000), status: [431, 414], injectStatus: [414] },
  // Over Node's 16 KiB header limit on a socket (431); inject() has no such limit (414).
  { name: 'GET a 20 KB path', target: `/${'a'.repeat(20_000)}`, status: [431, 414], injectStatus: [414] },
  { name: 'GET a 20 KB path of slashes', target: '/'.repeat(20_000), status: [431, 414, 400], injectStatus: [414, 400, 404] },
  { name: 'GET a 2 KB segment', target: `/child/${'b'.repeat(2_000)}`, status: [414] },
  // Absolute-form and other target forms: inject() keeps the path only.
  { name: 'absolute-form http://127.0.0.1/', target: 'http://127.0.0.1/', status: [200, 400], injectStatus: [200], runs: ['root.index'] },
  { name: 'absolute-form http://evil.example/child/', target: 'http://evil.example/child/', status: [200, 400], injectStatus: [200], runs: ['child.index'] },
  { name: 'absolute-form https://127.0.0.1/__proto__', target: 'https://127.0.0.1/__proto__', status: [400, 404], injectStatus: [404] },
  { name: 'asterisk-form GET *', target: '*', status: [400, 404], socketOnly: true },
  { name: 'authority-form GET 127.0.0.1:80', target: '127.0.0.1:80', status: [400, 404], socketOnly: true },
  { name: 'CONNECT', method: 'CONNECT', target: '127.0.0.1:80', status: [0, 400, 404, 405], socketOnly: true },
  { name: 'target with a fragment', target: '/child/#x', status: [200, 400, 404], injectStatus: [200], runs: ['child.index'] },
  { name: 'target with raw spaces', target: '/a b', status: [400, 404], socketOnly: true },
  { name: 'target with raw UTF-8', target: Buffer.from('/é', 'utf8').toString('latin1'), status: [400, 404], socketOnly: true },
  { name: 'unknown method', method: 'BREW', target: '/', status: [400, 405, 501], socketOnly: true },
  { name: 'method named like a prototype member', method: 'CONSTRUCTOR', target: '/', status: [400, 405, 501], socketOnly: true },
);

test('bad paths: the right 4xx, nothing crashed, nothing polluted, no handler ran', (t) => runTable(t, cases));
