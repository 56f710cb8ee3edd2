import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { corsPlugin, CORS_ERRORS, type CorsOptions } from './index.ts';

// A plugin's options are checked as it is applied: a mistake fails ready(), naming the option.
async function use(options: unknown): Promise<void> {
  const kernel = createKernel({ logger: false }).use(corsPlugin, options as CorsOptions);
  try {
    await kernel.ready();
  } finally {
    await kernel.close();
  }
}

test("origin '*' with credentials fails at ready(), with the coded error naming the fix", async () => {
  await assert.rejects(() => use({ origin: '*', credentials: true }), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'HICKORY_ERR_CORS_CREDENTIALS_WILDCARD');
    assert.match(error.message, /list the trusted origins/);
    return true;
  });
});

test('bad options fail at ready() with HICKORY_ERR_CORS_OPTION or HICKORY_ERR_CORS_ORIGIN, naming the option', async () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [undefined, 'HICKORY_ERR_CORS_OPTION', /"origin" is required/],
    [{}, 'HICKORY_ERR_CORS_OPTION', /"origin" must be '\*', an origin/],
    [{ origin: [] }, 'HICKORY_ERR_CORS_OPTION', /"origin" is an empty list/],
    [{ origin: ['*'] }, 'HICKORY_ERR_CORS_OPTION', /holds '\*' in a list/],
    [{ origin: [42] }, 'HICKORY_ERR_CORS_OPTION', /"origin" lists number/],
    [{ origin: 'https://app.example.com/' }, 'HICKORY_ERR_CORS_ORIGIN', /"https:\/\/app\.example\.com\/" is not an origin.*\(e\.g\. "https:\/\/app\.example\.com"\)/],
    [{ origin: 'https://App.Example.com:443' }, 'HICKORY_ERR_CORS_ORIGIN', /e\.g\. "https:\/\/app\.example\.com"/],
    [{ origin: 'app.example.com' }, 'HICKORY_ERR_CORS_ORIGIN', /scheme:\/\/host\[:port\]/],
    [{ origin: 'null' }, 'HICKORY_ERR_CORS_ORIGIN', /"null" is not an origin/],
    [{ origin: '*', maxAge: -1 }, 'HICKORY_ERR_CORS_OPTION', /"maxAge" must be a whole number of seconds/],
    [{ origin: '*', maxAge: '600' }, 'HICKORY_ERR_CORS_OPTION', /"maxAge"/],
    [{ origin: '*', credentials: 'yes' }, 'HICKORY_ERR_CORS_OPTION', /"credentials" must be true or false/],
    [{ origin: '*', methods: ['GET', 'PUT\r\nX: y'] }, 'HICKORY_ERR_CORS_OPTION', /"methods" must be a list of HTTP tokens/],
    [{ origin: '*', exposedHeaders: 'X-A; X-B' }, 'HICKORY_ERR_CORS_OPTION', /"exposedHeaders"/],
    [{ origin: '*', allowedHeader: ['X-A'] }, 'HICKORY_ERR_CORS_OPTION', /"allowedHeader" is unknown \(known: origin, methods, allowedHeaders/],
  ];
  for (const [options, code, message] of cases) {
    await assert.rejects(() => use(options), (error: Error & { code?: string }) => {
      assert.equal(error.code, code, JSON.stringify(options));
      assert.match(error.message, message);
      return true;
    });
  }
});

test('good options are accepted as the cors package takes them (comma strings or lists)', async () => {
  for (const options of [
    { origin: '*' },
    { origin: 'http://127.0.0.1:8080', credentials: true },
    { origin: ['https://a.example', /\.b\.example$/], methods: 'GET, POST', allowedHeaders: [], exposedHeaders: '', maxAge: 0 },
    { origin: () => true, credentials: true },
  ]) {
    await assert.doesNotReject(() => use(options), JSON.stringify(options));
  }
});

test('the error table has its three codes', async () => {
  assert.deepEqual(Object.keys(CORS_ERRORS), ['HICKORY_ERR_CORS_OPTION', 'HICKORY_ERR_CORS_ORIGIN', 'HICKORY_ERR_CORS_CREDENTIALS_WILDCARD']);
});
