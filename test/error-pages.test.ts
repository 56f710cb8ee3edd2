// Error documents (the `errors` configuration) and error-replacing plugins (the `onAbort` hook),
// end to end: small route taps stand in for controllers, and the error pages are templates of
// each engine.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { abort, createKernel, definePlugin, HTTPError, redirect, Response, type Kernel, type KernelConfig, type Request } from '@hickory/core';
import { describe as describeError } from '@hickory/core/kit';
import { ejsRenderer } from '@hickory/ejs';
import { handlebarsRenderer } from '@hickory/handlebars';
import { nunjucksRenderer } from '@hickory/nunjucks';
import { captureLog, makeWorkspace, removeWorkspaces, type Workspace } from '@hickory/renderer/conformance';

after(removeWorkspaces);

const TEMPLATES = {
  'errors/404.ejs': '<h1><%= status %> — not here</h1><p><%= detail %></p>',
  'errors/403.hbs': '<h1>{{status}} — keep out</h1><p>{{detail}}</p>',
  'errors/500.njk': '<h1>{{ status }} — our fault</h1><p>{{ detail }}</p>',
  'errors/broken.njk': '{% if %}',
};

type Handler = (request: Request, kernel: Kernel) => unknown;

/** Route taps standing in for controllers: path → handler. */
function routes(table: Record<string, Handler>) {
  const map = new Map(Object.entries(table));
  return definePlugin({
    name: 'test-routes',
    apply(kernel) {
      kernel.hooks.route.tap('test-routes', (request) => {
        const handler = map.get(request.path);
        return handler && { target: request.path, handle: (req: Request) => handler(req, kernel) };
      });
    },
  });
}

/** An error page: renders `template` with what `hickory.original_exception` tells. */
function errorPage(template: string): Handler {
  return (request, kernel) => {
    const error = request.environ['hickory.original_exception'] as HTTPError;
    return kernel.render(template, { status: error.status, detail: describeError(error) });
  };
}

const APP_ROUTES: Record<string, Handler> = {
  '/ok': () => 'fine',
  '/forbidden': () => abort(403, 'No entry for <you>'),
  '/crash': () => {
    throw new Error('secret database password');
  },
  '/gone': () => abort(410),
  '/method': () => abort(405, undefined, { Allow: 'GET, HEAD' }),
  '/moved': () => redirect('/ok'),
  '/error/404': errorPage('errors/404.ejs'),
  '/error/403': errorPage('errors/403.hbs'),
  '/error/500': errorPage('errors/500.njk'),
  '/error/loop': () => abort(404, 'the error page itself is missing'),
  '/error/throws': () => {
    throw new Error('the error page crashed');
  },
  '/error/broken-template': errorPage('errors/broken.njk'),
};

async function appWith(ws: Workspace, config: KernelConfig, ...plugins: Parameters<Kernel['use']>[0][]): Promise<Kernel> {
  const kernel = createKernel({ logger: false, confdir: ws.confdir, template_path: '%(confdir)s/templates', ...config })
    .use(ejsRenderer)
    .use(nunjucksRenderer)
    .use(handlebarsRenderer)
    .use(routes(APP_ROUTES));
  for (const plugin of plugins) kernel.use(plugin);
  return kernel.ready();
}

const ERRORS = { 404: '/error/404', 403: '/error/403', 500: '/error/500', 410: '/error/loop', 405: '/error/throws', 400: '/error/broken-template' };

/** The default error response of a kernel without error documents, for comparison. */
async function defaultResponse(ws: Workspace, url: string, headers: Record<string, string> = {}) {
  const plain = await appWith(ws, {});
  const res = await plain.inject({ method: 'GET', url, headers });
  await plain.close();
  return res;
}

test('errors: a 404 is rendered by an internal request to its error page (ejs), keeping the status', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const app = await appWith(ws, { errors: ERRORS });
  const res = await app.inject({ method: 'GET', url: '/nowhere?x=1' });
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.body, '<h1>404 — not here</h1><p>The resource could not be found.</p>');
  assert.equal((await app.inject({ method: 'GET', url: '/ok' })).body, 'fine');
  await app.close();
});

test('errors: the page reads the original exception (handlebars, detail escaped)', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const app = await appWith(ws, { errors: ERRORS });
  for (const method of ['GET', 'POST', 'DELETE']) {
    const res = await app.inject({ method, url: '/forbidden', payload: method === 'GET' ? undefined : 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.statusCode, 403, method);
    assert.equal(res.body, '<h1>403 — keep out</h1><p>No entry for &lt;you&gt;</p>', method);
  }
  const head = await app.inject({ method: 'HEAD', url: '/forbidden' });
  assert.equal(head.statusCode, 403);
  assert.equal(head.body, '');
  await app.close();
});

test('errors: an unexpected error gets the 500 page (nunjucks) with a generic text; the log has the cause', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const log = captureLog();
  const app = await appWith(ws, { errors: ERRORS, logger: log.logger });
  const res = await app.inject({ method: 'GET', url: '/crash' });
  assert.equal(res.statusCode, 500);
  assert.equal(res.body, '<h1>500 — our fault</h1><p>The server could not complete the request.</p>');
  assert.ok(log.errors.some((entry) => entry.details.some((d) => d instanceof Error && d.message === 'secret database password')));
  await app.close();
});

test('errors: an error page that fails (a loop, a throw, a broken template) falls back to the default body', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const log = captureLog();
  const app = await appWith(ws, { errors: ERRORS, logger: log.logger });
  const expected = {
    '/gone': await defaultResponse(ws, '/gone'), // 410 → /error/loop, which aborts 404 itself
    '/method': await defaultResponse(ws, '/method'), // 405 → /error/throws
  };
  for (const [url, plain] of Object.entries(expected)) {
    const res = await app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, plain.statusCode, url);
    assert.equal(res.body, plain.body, url);
    assert.equal(res.headers['content-type'], plain.headers['content-type'], url);
    assert.equal(res.headers.allow, plain.headers.allow, url);
  }
  assert.equal((await app.inject({ method: 'GET', url: '/method' })).headers.allow, 'GET, HEAD');
  assert.ok(log.errors.some((entry) => entry.message.includes('/error/loop')));
  assert.ok(log.errors.some((entry) => entry.message.includes('/error/throws')));
  await app.close();
});

test('errors: an error page whose template is broken falls back to the default body', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const log = captureLog();
  const app = await appWith(ws, { errors: { 404: '/error/broken-template' }, logger: log.logger });
  const res = await app.inject({ method: 'GET', url: '/nowhere' });
  const plain = await defaultResponse(ws, '/nowhere');
  assert.equal(res.statusCode, 404);
  assert.equal(res.body, plain.body);
  const logged = log.errors.find((entry) => entry.message.includes('/error/broken-template'));
  assert.match(String((logged?.details[0] as Error)?.message), /Template "errors\/broken.njk" \(engine "nunjucks"\) failed at line 1/);
  await app.close();
});

test('errors: an error page that points at itself does not loop', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const app = await appWith(ws, { errors: { 404: '/error/not-routed' } });
  const res = await app.inject({ method: 'GET', url: '/nowhere' });
  const plain = await defaultResponse(ws, '/nowhere');
  assert.equal(res.statusCode, 404);
  assert.equal(res.body, plain.body);
  await app.close();
});

test('errors: a redirect is never an error document', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const app = await appWith(ws, { errors: { ...ERRORS, 302: '/error/404' } as Record<string, string> }).catch((e: Error) => e);
  assert.ok(app instanceof Error && /errors/.test(app.message), 'a 3xx key is refused at ready()');
  const ok = await appWith(ws, { errors: ERRORS });
  const res = await ok.inject({ method: 'GET', url: '/moved' });
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, '/ok');
  await ok.close();
});

test('errors: the error page over a real socket', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const app = await appWith(ws, { errors: ERRORS });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(`${url}/nowhere`);
  assert.equal(res.status, 404);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(await res.text(), '<h1>404 — not here</h1><p>The resource could not be found.</p>');
  await app.close();
});

/**
 * A JSON error plugin: every HTTP error response becomes `{"error": {"status", "message"}}`.
 * HTTP errors arrive through `onAbort` (redirects are left alone); other errors through `onError`
 * as a generic 500. Headers the error carries (`Allow`) are kept.
 */
const jsonErrors = definePlugin({
  name: 'json-errors',
  apply(kernel) {
    const body = (status: number, message: string, headers?: Record<string, string | string[]>) =>
      new Response({
        status,
        headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
        body: JSON.stringify({ error: { status, message } }),
      });
    kernel.hooks.onAbort.tap('json-errors', (error) => (error.status >= 400 ? body(error.status, describeError(error), error.headers) : undefined));
    kernel.hooks.onError.tap('json-errors', () => body(500, describeError(new HTTPError(500))));
  },
});

test('onAbort: a JSON error plugin replaces every HTTP error response, before error documents', async () => {
  const ws = await makeWorkspace(TEMPLATES);
  const app = await appWith(ws, { errors: ERRORS }, jsonErrors);
  const cases: Array<[string, number, string]> = [
    ['/nowhere', 404, 'The resource could not be found.'],
    ['/forbidden', 403, 'No entry for <you>'],
    ['/gone', 410, 'Gone.'],
    ['/method', 405, 'The method is not allowed for this resource.'],
    ['/crash', 500, 'The server could not complete the request.'],
  ];
  for (const [url, status, message] of cases) {
    const res = await app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, status, url);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', url);
    assert.deepEqual(res.json(), { error: { status, message } }, url);
  }
  assert.equal((await app.inject({ method: 'GET', url: '/method' })).headers.allow, 'GET, HEAD');
  const moved = await app.inject({ method: 'GET', url: '/moved' });
  assert.equal(moved.statusCode, 302);
  assert.equal(moved.headers.location, '/ok');
  assert.equal((await app.inject({ method: 'GET', url: '/ok' })).body, 'fine');
  await app.close();
});
