import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, definePlugin, Request, Response, request, response } from './index.ts';
import { handle } from './fixtures/harness.ts';

class CustomRequest extends Request {
  /** Something the base class does not have, echoed by the handler. */
  get client_tag(): string {
    return `tag:${this.headers['x-client'] ?? 'none'}`;
  }
}

class CustomResponse extends Response {
  constructor(...args: ConstructorParameters<typeof Response>) {
    super(...args);
    this.headers['X-Custom-Response'] = 'from-response-cls';
  }
}

test('request_cls and response_cls subclasses build every request (X-Custom-Request, X-Custom-Response)', async () => {
  const app = createKernel({ logger: false, request_cls: CustomRequest, response_cls: CustomResponse }).use(
    handle(() => {
      assert.ok(request instanceof CustomRequest);
      assert.ok(response instanceof CustomResponse);
      response.headers['X-Custom-Request'] = (request as CustomRequest).client_tag;
      return 'custom';
    }),
  );
  await app.ready();
  assert.equal(app.container.resolve('request_cls'), CustomRequest);
  assert.equal(app.container.resolve('response_cls'), CustomResponse);
  assert.equal(app.container.resolve('kernel'), app);
  assert.equal(app.container.resolve('config'), app.config);
  const { url } = await app.listen({ port: 0 });
  const res = await fetch(url, { headers: { 'X-Client': 'abc' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-custom-request'), 'tag:abc');
  assert.equal(res.headers.get('x-custom-response'), 'from-response-cls');
  assert.equal(await res.text(), 'custom');
  const injected = await app.inject('/');
  assert.equal(injected.headers['x-custom-request'], 'tag:none');
  assert.equal(injected.headers['x-custom-response'], 'from-response-cls');
  await app.close();
});

test('the error responses of the kernel are built from response_cls too', async () => {
  const app = createKernel({ logger: false, response_cls: CustomResponse, errors: { 404: '/nf' } }).use(
    definePlugin({ name: 'r', apply: (k) => k.hooks.route.tap('r', (req) => (req.path === '/nf' ? { target: 0, handle: () => 'nf page' } : undefined)) }),
  );
  const res = await app.inject('/missing');
  assert.equal(res.statusCode, 404);
  assert.equal(res.body, 'nf page');
  assert.equal(res.headers['x-custom-response'], 'from-response-cls');
  await app.close();
});

test('the classes are resolved once at boot: no container scope or lookup per request', async () => {
  const app = createKernel({ logger: false, request_cls: CustomRequest }).use(handle(() => (request as CustomRequest).client_tag));
  const container = app.container;
  const original = { createScope: container.createScope, resolve: container.resolve };
  let resolvesAtBoot = 0;
  container.resolve = ((...args: Parameters<typeof container.resolve>) => {
    resolvesAtBoot++;
    return original.resolve.apply(container, args);
  }) as typeof container.resolve;
  await app.ready();
  assert.equal(resolvesAtBoot, 2, 'request_cls and response_cls, once each');
  let scopes = 0;
  let resolves = 0;
  container.createScope = (() => {
    scopes++;
    return original.createScope.call(container);
  }) as typeof container.createScope;
  container.resolve = ((...args: Parameters<typeof container.resolve>) => {
    resolves++;
    return original.resolve.apply(container, args);
  }) as typeof container.resolve;
  for (let i = 0; i < 20; i++) assert.equal((await app.inject('/')).body, 'tag:none');
  assert.equal(scopes, 0);
  assert.equal(resolves, 0);
  await app.close();
});

test('plugins may register their own services in the container', async () => {
  const { asValue } = await import('awilix');
  const app = createKernel({ logger: false }).use(
    definePlugin({
      name: 'clock',
      apply(kernel) {
        kernel.container.register({ clock: asValue({ now: () => 42 }) });
      },
    }),
  );
  await app.ready();
  assert.equal(app.container.resolve<{ now(): number }>('clock').now(), 42);
  await app.close();
});

test('a request_cls or response_cls that is not a subclass fails at ready(), naming the key', async () => {
  class NotARequest {}
  for (const [key, value] of [
    ['request_cls', NotARequest],
    ['request_cls', Response],
    ['response_cls', Request],
    ['response_cls', 'Response'],
    ['request_cls', new CustomRequest({ headers: {}, method: 'GET', url: '/' } as never, {} as never)],
  ] as const) {
    const app = createKernel({ logger: false, [key]: value });
    await assert.rejects(app.ready(), (e: Error & { code: string }) => {
      assert.equal(e.code, 'HICKORY_ERR_CONFIG_VALUE');
      assert.match(e.message, new RegExp(`"${key}" must be (Request|Response) or a subclass of it`));
      return true;
    });
    await app.close();
  }
});
