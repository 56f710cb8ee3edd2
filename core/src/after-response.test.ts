import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { createKernel, definePlugin, Request } from './index.ts';
import { capture, handle } from './fixtures/harness.ts';

test('afterResponse callbacks run once the response is sent, for the requests that asked only', async () => {
  const calls: string[] = [];
  const app = createKernel({ logger: false }).use(
    handle((request) => {
      if (request.path === '/cleanup') {
        request.afterResponse((completed) => calls.push(`first ${completed}`));
        request.afterResponse((completed) => calls.push(`second ${completed}`));
      }
      return 'ok';
    }),
  );
  const { url } = await app.listen({ port: 0 });
  assert.equal(await (await fetch(`${url}/cleanup`)).text(), 'ok');
  assert.equal(await (await fetch(`${url}/other`)).text(), 'ok');
  await app.close();
  assert.deepEqual(calls, ['first true', 'second true']);
});

test('a throwing afterResponse callback is logged and the next one still runs', async () => {
  const logger = capture();
  const calls: boolean[] = [];
  const app = createKernel({ logger }).use(
    handle((request) => {
      request.afterResponse(() => {
        throw new Error('unlink failed');
      });
      request.afterResponse((completed) => calls.push(completed));
      return 'ok';
    }),
  );
  assert.equal((await app.inject('/')).body, 'ok');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(calls, [true]);
  assert.match(logger.text(), /error: an afterResponse callback failed/);
  await app.close();
});

test('a client that leaves before the answer: afterResponse callbacks run with completed false', async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const outcome = new Promise<boolean>((resolve) => {
    const app = createKernel({ logger: false, close_timeout: 200 }).use(
      handle(async (request: Request) => {
        request.afterResponse(resolve);
        await released;
        return 'late';
      }),
    );
    void app.listen({ port: 0 }).then(({ url }) => {
      const client = httpRequest(`${url}/slow`);
      client.on('error', () => {});
      client.end();
      // The request is in the handler once the kernel has it; then the client goes.
      setTimeout(() => client.destroy(), 50);
      void outcome.then(() => {
        release();
        return app.close();
      });
    });
  });
  assert.equal(await outcome, false);
});

test('a request made outside a kernel takes afterResponse callbacks without running them', async () => {
  const app = createKernel({ logger: false });
  let raw: Request['raw'] | undefined;
  app.use(definePlugin({ name: 'grab', apply: (k) => k.hooks.beforeRoute.tap('grab', (request) => void (raw = request.raw)) }));
  await app.inject('/');
  await app.close();
  const outside = new Request(raw!, { bodyLimit: 1, paramLimit: 1, bodyParsers: app.hooks.parseBody });
  let called = false;
  outside.afterResponse(() => (called = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(called, false);
});
