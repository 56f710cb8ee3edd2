import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abort, createKernel, definePlugin, redirect, Response, type Kernel } from './index.ts';
import { capture, handle, routes } from './fixtures/harness.ts';

function plugin(name: string, apply: (kernel: Kernel) => void) {
  return definePlugin({ name, apply });
}

test('beforeHandle runs after the body is read and before the handler; an answer skips the handler', async () => {
  const seen: string[] = [];
  const app = createKernel({ logger: false })
    .use(
      handle((request) => {
        seen.push('handler');
        return `handled ${String(request.POST['name'])}`;
      }),
    )
    .use(
      plugin('before', (k) =>
        k.hooks.beforeHandle.tapPromise('before', async (lookup, request) => {
          seen.push(`beforeHandle loaded=${request.loaded} lookup=${lookup === request.lookup} name=${String(request.POST['name'])}`);
          return request.GET['stop'] === '1' ? 'answered by the tap' : undefined;
        }),
      ),
    );
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const handled = await app.inject({ method: 'POST', url: '/', headers: form, payload: 'name=Dune' });
  assert.equal(handled.body, 'handled Dune');
  assert.deepEqual(seen, ['beforeHandle loaded=true lookup=true name=Dune', 'handler']);
  seen.length = 0;
  const answered = await app.inject({ method: 'POST', url: '/?stop=1', headers: form, payload: 'name=Emma' });
  assert.equal(answered.statusCode, 200);
  assert.equal(answered.body, 'answered by the tap');
  assert.deepEqual(seen, ['beforeHandle loaded=true lookup=true name=Emma']);
  await app.close();
});

test('a beforeHandle tap that aborts gives that status, and the handler does not run', async () => {
  let ran = false;
  const app = createKernel({ logger: false })
    .use(handle(() => void (ran = true)))
    .use(plugin('deny', (k) => k.hooks.beforeHandle.tap('deny', () => abort(403, 'No.'))));
  const res = await app.inject('/');
  assert.equal(res.statusCode, 403);
  assert.equal(ran, false);
  await app.close();
});

test('beforeSend sees the final response once — the handler’s, an abort’s, a redirect’s — and may change it', async () => {
  const seen: string[] = [];
  const app = createKernel({ logger: false, errors: { 404: '/missing-page' } })
    .use(
      routes({
        '/ok': () => 'fine',
        '/denied': () => abort(403),
        '/moved': () => redirect('/ok'),
        '/inside': () => redirect('/ok', { internal: true }),
        '/replaced': () => new Response({ status: 201, body: 'made' }),
        '/missing-page': () => 'the 404 page',
      }),
    )
    .use(
      plugin('after', (k) =>
        k.hooks.beforeSend.tapPromise('after', async (request, response) => {
          seen.push(`${request.path} ${response.status}`);
          response.headerMap.set('X-After', String(response.status));
        }),
      ),
    );
  const cases: Array<[string, number, string]> = [
    ['/ok', 200, 'fine'],
    ['/denied', 403, ''],
    ['/moved', 302, ''],
    ['/inside', 200, 'fine'],
    ['/replaced', 201, 'made'],
    ['/nowhere', 404, 'the 404 page'],
  ];
  for (const [url, status, body] of cases) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, status, url);
    assert.equal(res.headers['x-after'], String(status), url);
    if (body !== '') assert.equal(res.body, body, url);
  }
  // One call per request; the internal redirect reports the path it ended on, the error page its original one.
  assert.deepEqual(seen, ['/ok 200', '/denied 403', '/moved 302', '/ok 200', '/replaced 201', '/nowhere 404']);
  await app.close();
});

test('a beforeSend tap that throws is a logged 500, not a crash, and later taps do not run', async () => {
  const logger = capture();
  let later = false;
  const app = createKernel({ logger })
    .use(handle(() => 'fine'))
    .use(
      plugin('broken', (k) => {
        k.hooks.beforeSend.tap('broken', () => {
          throw new Error('after hook broke');
        });
        k.hooks.beforeSend.tap('later', () => void (later = true));
      }),
    );
  const res = await app.inject('/');
  assert.equal(res.statusCode, 500);
  assert.match(res.body, /500 Internal Server Error/);
  assert.doesNotMatch(res.body, /fine/);
  assert.equal(later, false);
  assert.ok(logger.lines.some((line) => line.level === 'error' && line.details.some((d) => (d as Error)?.message === 'after hook broke')));
  await app.close();
});
