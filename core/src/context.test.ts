import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, request, response, Request, Response } from './index.ts';
import { currentExchange } from './current.ts';
import { deferred, handle } from './fixtures/harness.ts';

test('request and response outside a request throw a clear coded error', () => {
  assert.throws(() => request.path, { code: 'HICKORY_ERR_OUTSIDE_REQUEST', message: /`request` was used outside of a request/ });
  assert.throws(() => {
    response.status = 200;
  }, { code: 'HICKORY_ERR_OUTSIDE_REQUEST', message: /`response`/ });
  assert.equal(currentExchange(), undefined);
});

test('the accessors follow the request across await', async () => {
  const app = createKernel({ logger: false }).use(
    handle(async (req, res) => {
      assert.equal(request.path, req.path);
      await new Promise((r) => setTimeout(r, 1));
      await Promise.resolve();
      response.status = 201;
      response.headers['X-Path'] = request.path;
      assert.ok(request instanceof Request);
      assert.ok(response instanceof Response);
      assert.equal(currentExchange()?.request, req);
      assert.equal(res.status, 201);
      return `${request.method} ${request.GET.q}`;
    }),
  );
  const res = await app.inject('/here?q=7');
  assert.equal(res.statusCode, 201);
  assert.equal(res.headers['x-path'], '/here');
  assert.equal(res.body, 'GET 7');
  await app.close();
});

test('concurrent requests each see their own request and response', async () => {
  const gates = new Map<string, ReturnType<typeof deferred<void>>>();
  for (const name of ['a', 'b', 'c']) gates.set(name, deferred());
  const app = createKernel({ logger: false }).use(
    handle(async () => {
      const name = request.GET.name as string;
      response.headers['X-Name'] = name;
      await gates.get(name)!.promise;
      request.context.seen = name;
      return `${name}:${request.GET.name as string}:${response.headers['x-name'] as string}:${request.context.seen as string}`;
    }),
  );
  await app.ready();
  const pending = ['a', 'b', 'c'].map((name) => app.inject(`/?name=${name}`));
  await new Promise((r) => setTimeout(r, 5));
  gates.get('c')!.resolve();
  gates.get('a')!.resolve();
  gates.get('b')!.resolve();
  const bodies = (await Promise.all(pending)).map((r) => `${r.body}|${r.headers['x-name'] as string}`);
  assert.deepEqual(bodies, ['a:a:a:a|a', 'b:b:b:b|b', 'c:c:c:c|c']);
  await app.close();
});

test('the caller of inject() is outside the request again; over a socket, a hundred interleaved requests each keep their own', async () => {
  const app = createKernel({ logger: false }).use(
    handle(async () => {
      const before = request.path;
      // Requests interleave here: each resumes after others have been served.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, Number(request.path.slice(2)) % 7));
      return `${before}|${request.path}`;
    }),
  );
  // The request's context, entered and not left where Node keeps it in frames, ends with inject()'s
  // own continuation: the caller's code after it sees no request.
  const res = await app.inject('/r1');
  assert.equal(res.body, '/r1|/r1');
  assert.equal(currentExchange(), undefined);
  assert.throws(() => request.path, { code: 'HICKORY_ERR_OUTSIDE_REQUEST' });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const paths = Array.from({ length: 100 }, (_, i) => `/r${i}`);
  const bodies = await Promise.all(paths.map(async (path) => (await fetch(`${url}${path}`)).text()));
  assert.deepEqual(bodies, paths.map((path) => `${path}|${path}`));
  await app.close();
});

test('a Response returned by the handler replaces the one behind the response accessor', async () => {
  let after: Response | undefined;
  const app = createKernel({ logger: false }).use(
    handle(() => {
      response.headers['X-Dropped'] = '1';
      return new Response('replaced', 202);
    }),
  ).use({
    name: 'after',
    apply: (k) => k.hooks.onResponse.tap('after', (_req, res) => void (after = res)),
  });
  const res = await app.inject('/');
  assert.equal(res.statusCode, 202);
  assert.equal(res.body, 'replaced');
  assert.equal(res.headers['x-dropped'], undefined);
  assert.equal(after?.text, 'replaced');
  await app.close();
});

test('methods called through the accessors run on the real object', async () => {
  class Tagged extends Request {
    #secret = 's3';
    reveal(): string {
      return this.#secret;
    }
  }
  const app = createKernel({ logger: false, request_cls: Tagged }).use(handle(() => (request as Tagged).reveal()));
  assert.equal((await app.inject('/')).body, 's3');
  await app.close();
});
