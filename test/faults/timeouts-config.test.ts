import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';

// Timeouts are configuration: a headers timeout longer than the request timeout is refused at
// ready() (Node would throw at listen()), and a short request_timeout alone pulls the default
// headers timeout down with it.

test('headers_timeout longer than request_timeout fails ready() naming both', async () => {
  const app = createKernel({ logger: false, headers_timeout: 5_000, request_timeout: 1_000 });
  await assert.rejects(app.ready(), (e: Error & { code: string }) => {
    assert.equal(e.code, 'HICKORY_ERR_CONFIG_VALUE');
    assert.match(e.message, /^Configuration key "headers_timeout" must not be longer than request_timeout \(5000 > 1000 ms\)/);
    return true;
  });
  await app.close();
});

test('a short request_timeout alone: the default headers_timeout follows it and listen() works', async () => {
  const app = createKernel({ logger: false, request_timeout: 1_000 });
  await app.ready();
  assert.equal(app.config.headers_timeout, 1_000);
  const { server } = await app.listen({ port: 0, host: '127.0.0.1' });
  assert.equal(server.headersTimeout, 1_000);
  assert.equal(server.requestTimeout, 1_000);
  await app.close();
});
