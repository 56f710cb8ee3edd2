import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, definePlugin, type Logger } from './index.ts';
import { maskedHeaders } from './debug-page.ts';

const failing = definePlugin({
  name: 'failing',
  apply(kernel) {
    kernel.hooks.beforeRoute.tap('failing', (_request, response) => {
      response.headers['X-Seen'] = 'yes';
      throw 'a string, not an Error';
    });
    kernel.addDebugSection((request) => ({ title: 'Tenant <x>', rows: [['path', request.path]] }));
    kernel.addDebugSection(() => {
      throw new Error('this section is broken');
    });
    kernel.addDebugSection(() => undefined);
  },
});

test('plugins add sections; a throwing one is logged and left out; headers set before the error stay', async () => {
  const errors: string[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (message: string) => void errors.push(message) };
  const app = createKernel({ debug: true, logger }).use(failing);
  const res = await app.inject('/x');
  assert.equal(res.statusCode, 500);
  assert.equal(res.headers['x-seen'], 'yes');
  assert.match(res.body, /<h1>Thrown value: a string, not an Error<\/h1>/);
  assert.match(res.body, /<h2>Tenant &lt;x&gt;<\/h2><table><tr><th>path<\/th><td>\/x<\/td><\/tr><\/table>/);
  assert.equal(res.body.match(/<h2>/g)?.length, 4); // Stack, Request, Headers, Tenant
  assert.ok(errors.includes('a debug section failed; the page is shown without it'));
  await app.close();
});

test('addDebugSection after ready() is refused', async () => {
  const app = createKernel({ logger: false });
  await app.ready();
  assert.throws(() => app.addDebugSection(() => undefined), { code: 'HICKORY_ERR_USE_AFTER_READY' });
  await app.close();
});

test('maskedHeaders sorts the names and masks credentials, whatever their case', () => {
  assert.deepEqual(maskedHeaders({ 'x-api-key': 'k1', accept: 'text/html', 'set-cookie': ['a=1', 'b=2'], 'proxy-authorization': 'Basic eA==' }), [
    ['accept', 'text/html'],
    ['proxy-authorization', '••• (masked, 10 characters)'],
    ['set-cookie', '••• (masked, 8 characters)'],
    ['x-api-key', '••• (masked, 2 characters)'],
  ]);
});
