import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Kernel } from '@hickory/core';
import { makeApp } from './app.ts';
import { assertNoLeak, assertNothingUncaught, assertPrototypesUnchanged, injectCase, listening, rawExchange, requestBytes, type Answer, type Case } from './harness.ts';

// Property-based fuzzing of paths, query strings and bodies against the invariants: an answer
// (no hang), never a 5xx, nothing internal in the body, nothing uncaught, prototypes untouched.
// Bounded runs with a fixed seed (HICKORY_FUZZ_SEED / HICKORY_FUZZ_RUNS change them); a
// failure message names the seed and the counterexample.

const seed = Number(process.env['HICKORY_FUZZ_SEED'] ?? 20261122);
const runs = Number(process.env['HICKORY_FUZZ_RUNS'] ?? 150);

const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), 'prototype', '_lookup', '_default', '_route'];
// Routable names of the fixture, minus those that fail or stream large bodies on purpose.
const ROUTES = ['index', 'child', 'info', 'items', 'books', 'echo', 'upload', 'page', 'npage', 'hpage', 'download', 'new', 'edit', 'delete', '1', '42', 'hello.txt'];
const PIECES = ['.', '..', '%2e', '%2E%2e', '%2f', '%5c', '\\', '%00', '%', '%z', '%c0%ae', '%ff', '%e2%80%ae', '.json', '.html', '.txt', ';', '~', '$', '@', ':', '*', '%20', '+', '&', '='];

const segment = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, ...ROUTES),
  fc.array(fc.constantFrom(...PIECES, ...PROTOTYPE_NAMES.slice(0, 6), 'a', 'Z', '0'), { maxLength: 5 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => encodeURIComponent(s)),
);
const path = fc.tuple(fc.array(segment, { maxLength: 70 }), fc.boolean()).map(([segments, slash]) => `/${segments.join('/')}${slash ? '/' : ''}`);

const key = fc.oneof(
  fc.constantFrom('__proto__', '__proto__[x]', '__proto__.x', 'constructor', 'constructor[prototype][x]', 'prototype', 'toString', 'hasOwnProperty', 'a', 'title', 'name', 'kwargs'),
  fc.string({ maxLength: 10 }),
);
const value = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('1', '%ff', '%', '%zz', '\u0000', '<script>', '{{7*7}}', '<%= 7*7 %>'));
const escapeLoosely = (text: string) => (text.includes('%') ? text : encodeURIComponent(text));
const query = fc.array(fc.tuple(key, value, fc.boolean()), { maxLength: 40 }).map((pairs) =>
  pairs.map(([k, v, raw]) => (raw ? `${escapeLoosely(k)}=${escapeLoosely(v)}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&'),
);

const jsonKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'a', 'b'), fc.string({ maxLength: 8 }));
const jsonTree = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(jsonKey, tie('node'), { maxKeys: 4 })),
})).node;
// The key written plainly or with \u escapes: both must be refused alike.
const jsonText = fc.tuple(jsonTree, fc.boolean()).map(([tree, escape]) => {
  const text = JSON.stringify(tree);
  return escape ? text.replace(/"__proto__"|"constructor"|"prototype"/g, (k) => `"\\u00${k.charCodeAt(1).toString(16)}${k.slice(2)}`) : text;
});

const contentType = fc.oneof(
  fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', 'constructor', '__proto__', 'application/json; charset=__proto__', ' application/json '),
  fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
);
const body = fc.oneof(jsonText, query, fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes).toString('latin1')));

function checkInvariants(answer: Answer, context: string): void {
  assert.ok(answer.status >= 200 && answer.status < 500, `${context}: status ${answer.status}: ${answer.body.slice(0, 200)}`);
  assertNoLeak(answer, context);
  assertNothingUncaught(context);
  assertPrototypesUnchanged(context);
}

async function both(app: Kernel, port: number, c: Case, socket: boolean): Promise<void> {
  try {
    checkInvariants(await injectCase(app, c), `inject ${c.method ?? 'GET'} ${c.target}`);
  } catch (error) {
    // light-my-request cannot build some targets (`/\\x` reads as another host): the socket decides.
    if ((error as { code?: string }).code !== 'ERR_INVALID_URL') throw error;
    socket = true;
  }
  if (socket) checkInvariants(await rawExchange(port, requestBytes(c)), `socket ${c.method ?? 'GET'} ${c.target}`);
}

test(`fuzzing paths, query strings and bodies (seed ${seed}, ${runs} runs each)`, async (t) => {
  const app = makeApp();
  const port = await listening(app);
  const options = { seed, numRuns: runs, endOnFailure: true };
  let n = 0;
  try {
    await t.test('paths', () =>
      fc.assert(
        fc.asyncProperty(path, fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'), async (target, method) => {
          await both(app, port, { name: target, method, target, status: [] }, n++ % 4 === 0);
        }),
        options,
      ),
    );
    await t.test('query strings', () =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom('/echo', '/page', '/books/', '/items/1/', '/child/info', '/upload'), query, async (route, q) => {
          const target = `${route}?${q}`;
          await both(app, port, { name: target, target, status: [] }, n++ % 4 === 0);
        }),
        options,
      ),
    );
    await t.test('bodies', () =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom('/echo', '/books/', '/books/1', '/upload', '/options', '/noptions', '/hoptions'), fc.constantFrom('POST', 'PUT'), contentType, body, async (target, method, type, payload) => {
          await both(app, port, { name: target, method, target, headers: { 'content-type': type }, body: payload, status: [] }, n++ % 4 === 0);
        }),
        options,
      ),
    );
    await t.test('JSON with forbidden keys is always refused', () =>
      fc.assert(
        fc.asyncProperty(jsonText, async (text) => {
          const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: text });
          const forbidden = /"(__proto__|constructor|prototype|\\u005f_proto__|\\u0063onstructor|\\u0070rototype)"\s*:/.test(text);
          if (forbidden) assert.equal(res.statusCode, 400, text);
          else assert.ok([200, 400].includes(res.statusCode), `${res.statusCode} for ${text}`);
          assertPrototypesUnchanged(text);
        }),
        options,
      ),
    );
  } finally {
    await app.close();
  }
});
