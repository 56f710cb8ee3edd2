import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abort, createKernel, definePlugin, HTTPError, Response, type Kernel, type ResponseInfo } from './index.ts';
import { capture, handle, rawExchange } from './fixtures/harness.ts';
import { tapDirect } from './hooks.ts';

function plugin(name: string, apply: (kernel: Kernel) => void) {
  return definePlugin({ name, apply });
}

test('the hooks object is frozen, made once per kernel, and holds every documented hook', async () => {
  const app = createKernel({ logger: false });
  assert.equal(Object.isFrozen(app.hooks), true);
  assert.equal(app.hooks, app.hooks);
  assert.notEqual(createKernel().hooks, app.hooks);
  for (const name of ['beforeRoute', 'route', 'afterLookup', 'beforeHandle', 'parseBody', 'render', 'onAbort', 'onError', 'beforeSend', 'onResponse', 'ready', 'close']) {
    assert.ok(name in app.hooks, name);
  }
  assert.throws(() => {
    (app.hooks as Record<string, unknown>).extra = 1;
  }, TypeError);
  await app.close();
});

test('tapping any hook after ready() throws HICKORY_ERR_TAP_AFTER_READY', async () => {
  const app = createKernel({ logger: false }).use(plugin('r', (k) => k.hooks.render.for('ejs').tap('r', () => 'x')));
  await app.ready();
  const refused = { code: 'HICKORY_ERR_TAP_AFTER_READY' };
  assert.throws(() => app.hooks.beforeRoute.tap('late', () => undefined), refused);
  assert.throws(() => app.hooks.beforeRoute.tapPromise('late', async () => undefined), refused);
  assert.throws(() => app.hooks.route.tapAsync('late', (_a, _b, cb) => cb()), refused);
  assert.throws(() => app.hooks.onResponse.tap('late', () => {}), refused);
  assert.throws(() => app.hooks.render.for('ejs').tap('late', () => 'y'), refused);
  assert.throws(() => app.hooks.render.for('brand-new').tap('late', () => 'y'), refused);
  assert.throws(() => app.hooks.parseBody.for('text/csv').tap('late', () => undefined), refused);
  await app.close();
});

test('hooks with no taps are never called per request', async () => {
  const app = createKernel({ logger: false }).use(handle(() => 'ok'));
  await app.ready();
  const called: string[] = [];
  for (const name of ['beforeRoute', 'afterLookup', 'beforeHandle', 'onAbort', 'onError', 'beforeSend'] as const) {
    (app.hooks[name] as unknown as { promise: unknown }).promise = () => {
      called.push(name);
      return Promise.resolve(undefined);
    };
  }
  (app.hooks.onResponse as unknown as { call: unknown }).call = () => void called.push('onResponse');
  assert.equal((await app.inject('/')).body, 'ok');
  assert.deepEqual(called, []);
  await app.close();
});

test('a kernel without a routing plugin answers 404', async () => {
  const app = createKernel({ logger: false });
  const res = await app.inject('/anything');
  assert.equal(res.statusCode, 404);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(res.body, /<h1>404 Not Found<\/h1>/);
  await app.close();
});

test('a route tap that returns nothing gives 404; the first lookup wins', async () => {
  const app = createKernel({ logger: false })
    .use(plugin('none', (k) => k.hooks.route.tap('none', () => undefined)))
    .use(plugin('first', (k) => k.hooks.route.tap('first', (req) => (req.path === '/x' ? { target: 1, handle: () => 'first' } : undefined))))
    .use(plugin('second', (k) => k.hooks.route.tap('second', () => ({ target: 2, handle: () => 'second' }))));
  assert.equal((await app.inject('/x')).body, 'first');
  assert.equal((await app.inject('/y')).body, 'second');
  await app.close();
});

test('beforeRoute may answer with a Response, a string, a Buffer or an object (JSON)', async () => {
  const app = createKernel({ logger: false })
    .use(
      plugin('answers', (k) =>
        k.hooks.beforeRoute.tap('answers', (req) => {
          switch (req.path) {
            case '/response':
              return new Response({ body: 'made', status: 201, headers: { 'X-Made': 'yes' } });
            case '/string':
              return 'text';
            case '/buffer':
              return Buffer.from([1, 2, 3]);
            case '/object':
              return { a: 1, list: [true, null] };
            case '/null':
              return null;
            default:
              return undefined;
          }
        }),
      ),
    )
    .use(handle(() => 'routed'));
  let res = await app.inject('/response');
  assert.equal(res.statusCode, 201);
  assert.equal(res.headers['x-made'], 'yes');
  assert.equal(res.body, 'made');
  res = await app.inject('/string');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.headers['content-length'], '4');
  assert.equal(res.body, 'text');
  res = await app.inject('/buffer');
  assert.equal(res.headers['content-type'], 'application/octet-stream');
  assert.deepEqual([...res.rawPayload], [1, 2, 3]);
  res = await app.inject('/object');
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.body, '{"a":1,"list":[true,null]}');
  res = await app.inject('/null');
  assert.equal(res.body, 'null');
  res = await app.inject('/other');
  assert.equal(res.body, 'routed');
  await app.close();
});

test('beforeRoute may rewrite the request and set headers kept on the response', async () => {
  const app = createKernel({ logger: false })
    .use(
      plugin('rewrite', (k) =>
        k.hooks.beforeRoute.tap('rewrite', (req, res) => {
          res.headers['X-Before'] = '1';
          if (req.path === '/old') req.rewrite('/new?from=old');
        }),
      ),
    )
    .use(handle((req) => `${req.path} ${req.url} ${String(req.GET.from)}`));
  const res = await app.inject('/old?x=1');
  assert.equal(res.body, '/new /new?from=old old');
  assert.equal(res.headers['x-before'], '1');
  await app.close();
});

test('tapDirect with a stage runs before the taps tapped earlier at the default stage', async () => {
  const order: string[] = [];
  const app = createKernel({ logger: false })
    .use(plugin('first', (k) => k.hooks.beforeRoute.tap('first', () => void order.push('first'))))
    .use(plugin('early', (k) => tapDirect(k.hooks.beforeRoute, 'early', () => void order.push('early'), { stage: -100 })))
    .use(handle(() => 'ok'));
  assert.equal((await app.inject('/')).body, 'ok');
  assert.deepEqual(order, ['early', 'first']);
  await app.close();
});

test('afterLookup sees the lookup and may answer or abort', async () => {
  const targets: unknown[] = [];
  const app = createKernel({ logger: false })
    .use(
      plugin('guard', (k) =>
        k.hooks.afterLookup.tap('guard', (lookup, req) => {
          targets.push(lookup.target);
          if (req.path === '/secret') abort(403, 'Not for you');
          if (req.path === '/cached') return { cached: true };
          return undefined;
        }),
      ),
    )
    .use(plugin('route', (k) => k.hooks.route.tap('route', (req) => ({ target: `target:${req.path}`, handle: () => 'handled' }))));
  let res = await app.inject({ url: '/secret', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 403);
  assert.deepEqual(res.json(), { code: 403, title: 'Forbidden', description: 'Not for you' });
  res = await app.inject('/cached');
  assert.deepEqual(res.json(), { cached: true });
  res = await app.inject('/open');
  assert.equal(res.body, 'handled');
  assert.deepEqual(targets, ['target:/secret', 'target:/cached', 'target:/open']);
  await app.close();
});

test('onAbort sees every HTTP error and may replace the error response', async () => {
  const seen: Array<[number, string]> = [];
  const app = createKernel({ logger: false })
    .use(
      plugin('pages', (k) =>
        k.hooks.onAbort.tap('pages', (error, req) => {
          seen.push([error.status, req.path]);
          if (error.status === 404) return new Response(`custom 404 for ${req.path}`, 404);
          return undefined;
        }),
      ),
    )
    .use(plugin('route', (k) => k.hooks.route.tap('route', (req) => (req.path === '/teapot' ? { target: 0, handle: () => abort(418) } : undefined))));
  let res = await app.inject('/missing');
  assert.equal(res.statusCode, 404);
  assert.equal(res.body, 'custom 404 for /missing');
  res = await app.inject('/teapot');
  assert.equal(res.statusCode, 418);
  assert.match(res.body, /418 I&#39;m a Teapot/);
  assert.deepEqual(seen, [
    [404, '/missing'],
    [418, '/teapot'],
  ]);
  await app.close();
});

test('a failing onAbort tap is logged and the default error body is sent', async () => {
  const logger = capture();
  const app = createKernel({ logger })
    .use(plugin('broken', (k) => k.hooks.onAbort.tap('broken', () => { throw new Error('tap broke'); })));
  const res = await app.inject('/x');
  assert.equal(res.statusCode, 404);
  assert.match(res.body, /404 Not Found/);
  assert.match(logger.text(), /onAbort tap failed.*tap broke/);
  await app.close();
});

test('onError sees the error and may replace the generic 500', async () => {
  const errors: unknown[] = [];
  const logger = capture();
  const app = createKernel({ logger })
    .use(
      plugin('report', (k) =>
        k.hooks.onError.tap('report', (error, req) => {
          errors.push(error);
          return req.path === '/replace' ? new Response({ body: 'sorry', status: 503, headers: { 'Retry-After': '5' } }) : undefined;
        }),
      ),
    )
    .use(handle(() => { throw new Error('secret database password'); }));
  let res = await app.inject('/replace');
  assert.equal(res.statusCode, 503);
  assert.equal(res.headers['retry-after'], '5');
  assert.equal(res.body, 'sorry');
  res = await app.inject('/plain');
  assert.equal(res.statusCode, 500);
  assert.doesNotMatch(res.body, /secret|password|at /);
  assert.match(res.body, /<p>The server could not complete the request.<\/p>/);
  assert.equal(errors.length, 2);
  assert.equal((errors[0] as Error).message, 'secret database password');
  assert.match(logger.text(), /GET \/plain failed secret database password/);
  await app.close();
});

test('onResponse gets the request, the response and facts about it', async () => {
  const infos: Array<[string, ResponseInfo]> = [];
  const app = createKernel({ logger: false })
    .use(plugin('log', (k) => k.hooks.onResponse.tap('log', (req, _res, info) => void infos.push([req.path, info]))))
    .use(handle((req) => (req.path === '/missing' ? abort(404) : 'ok')));
  await app.inject('/ok');
  await app.inject('/missing');
  assert.equal(infos.length, 2);
  assert.equal(infos[0]![0], '/ok');
  assert.equal(infos[0]![1].status, 200);
  assert.equal(infos[0]![1].completed, true);
  assert.equal(typeof infos[0]![1].duration, 'number');
  assert.ok(infos[0]![1].duration >= 0);
  assert.equal(infos[1]![1].status, 404);
  await app.close();
});

test('a throwing onResponse tap is logged, never crashes', async () => {
  const logger = capture();
  const app = createKernel({ logger }).use(plugin('bad', (k) => k.hooks.onResponse.tap('bad', () => { throw new Error('metrics down'); })));
  assert.equal((await app.inject('/')).statusCode, 404);
  assert.match(logger.text(), /onResponse tap failed metrics down/);
  await app.close();
});

test('the ready hook runs in ready() with the kernel; the close hook in close()', async () => {
  const events: string[] = [];
  const app = createKernel({ logger: false }).use(
    plugin('life', (k) => {
      k.hooks.ready.tapPromise('life', async (kernel) => {
        assert.equal(kernel, k);
        events.push('ready');
      });
      k.hooks.close.tap('life', (kernel) => {
        assert.equal(kernel, k);
        events.push('close');
      });
    }),
  );
  assert.deepEqual(events, []);
  await app.ready();
  assert.deepEqual(events, ['ready']);
  await app.close();
  await app.close();
  assert.deepEqual(events, ['ready', 'close']);
});

test('a failing ready tap makes ready() reject', async () => {
  const app = createKernel({ logger: false }).use(plugin('r', (k) => k.hooks.ready.tapPromise('r', async () => { throw new Error('no cache'); })));
  await assert.rejects(app.ready(), /no cache/);
  await app.close();
});

test('render picks the engine by prefix, extension, or default_renderer', async () => {
  const jobs: string[] = [];
  const engine = (name: string) =>
    plugin(`engine-${name}`, (k) =>
      k.hooks.render.for(name).tap(name, (job) => {
        jobs.push(`${job.engine}:${job.template}`);
        return `${name}(${String(job.namespace.x)})`;
      }),
    );
  const app = createKernel({ logger: false, default_renderer: 'ejs' }).use(engine('ejs')).use(engine('njk'));
  await app.ready();
  assert.equal(await app.render('page.njk', { x: 1 }), 'njk(1)');
  assert.equal(await app.render('njk:page.html', { x: 2 }), 'njk(2)');
  assert.equal(await app.render('dir.v2/page.html', { x: 3 }), 'ejs(3)');
  assert.equal(await app.render('page', { x: 4 }), 'ejs(4)');
  assert.deepEqual(jobs, ['njk:page.njk', 'njk:page.html', 'ejs:dir.v2/page.html', 'ejs:page']);
  assert.deepEqual(app.rendererFor('a.njk'), { engine: 'njk', available: true });
  assert.deepEqual(app.rendererFor('hbs:a'), { engine: 'hbs', available: false });
  await assert.rejects(app.render('hbs:a.hbs', {}), { code: 'HICKORY_ERR_NO_RENDERER' });
  assert.deepEqual(app.renderEngines(), ['ejs', 'njk']);
  await app.close();
});

test('a default_renderer that no renderer plugin handles fails at ready(), naming the engines in use', async () => {
  const engine = plugin('engine-njk', (k) => k.hooks.render.for('njk').tap('njk', () => 'x'));
  await assert.rejects(createKernel({ logger: false, default_renderer: 'ejs' }).use(engine).ready(), {
    code: 'HICKORY_ERR_CONFIG_VALUE',
    message: 'Configuration key "default_renderer" names engine "ejs", but no renderer plugin handles it (engines in use: njk): add the engine\'s plugin with kernel.use(), or fix the name.',
  });
  await assert.rejects(createKernel({ logger: false, default_renderer: 'ejs' }).ready(), { message: /no renderer plugin is in use/ });
});

test('a Response from onAbort keeps the error\'s headers unless it sets its own', async () => {
  const app = createKernel({ logger: false })
    .use(plugin('json-errors', (k) => k.hooks.onAbort.tap('json-errors', (error) => new Response({ body: JSON.stringify({ status: error.status }), status: error.status, headers: { 'WWW-Authenticate': 'Custom' } }))))
    .use(plugin('route', (k) => k.hooks.route.tap('route', () => ({ target: 0, handle: () => abort(405, 'no', { Allow: 'GET, HEAD', 'WWW-Authenticate': 'Basic' }) }))));
  const res = await app.inject({ method: 'PUT', url: '/x' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.body, '{"status":405}');
  assert.equal(res.headers.allow, 'GET, HEAD');
  assert.equal(res.headers['www-authenticate'], 'Custom');
  await app.close();
});

test('HTTPError thrown by a beforeRoute tap goes through onAbort', async () => {
  const app = createKernel({ logger: false }).use(plugin('deny', (k) => k.hooks.beforeRoute.tap('deny', () => { throw new HTTPError(401, 'Log in', { 'WWW-Authenticate': 'Basic' }); })));
  const res = await app.inject('/');
  assert.equal(res.statusCode, 401);
  assert.equal(res.headers['www-authenticate'], 'Basic');
  assert.match(res.body, /Log in/);
  await app.close();
});

test('onResponse on a connection with 20 pipelined requests: every tap runs, one close listener per connection (no leak warning)', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  const infos: Array<[string, boolean]> = [];
  const app = createKernel({ logger: false })
    .use(plugin('log', (k) => k.hooks.onResponse.tap('log', (req, _res, info) => void infos.push([req.path, info.completed]))))
    .use(handle(async (req) => {
      await new Promise((resolve) => setImmediate(resolve));
      return req.path;
    }));
  const { url } = await app.listen({ port: 0 });
  const paths = Array.from({ length: 20 }, (_, i) => `/r${i}`);
  const text = paths.map((path, i) => `GET ${path} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('');
  const raw = await rawExchange(url, text);
  await app.close();
  process.off('warning', onWarning);
  assert.equal(raw.match(/HTTP\/1\.1 200 OK/g)?.length, 20);
  assert.deepEqual(infos, paths.map((path) => [path, true]));
  assert.deepEqual(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), []);
});
