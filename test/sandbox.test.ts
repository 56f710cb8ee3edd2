import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSandbox } from '@hickory/sandbox/app';

test('the sandbox answers its landing page through inject()', async () => {
  const app = await createSandbox();
  const res = await app.inject('/');
  assert.equal(res.statusCode, 200);
  assert.match(res.body, /<h1>Hickory sandbox<\/h1>/);
  assert.equal((await app.inject('/nowhere')).statusCode, 404);
  await app.close();
});
