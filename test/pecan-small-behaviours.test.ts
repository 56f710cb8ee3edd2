// Issue 39 (contract v4), gaps 5 and 7: request rewriting in an on_route hook, and Pecan's small
// behaviours a real application depends on. Each asserts the status, body and headers.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { abort, definePlugin, loadConfig, request, type Request, type Response } from '@hickory/core';
import { expose, override_template } from '@hickory/dispatch';
import { Hook, type HookState } from '@hickory/hooks';
import { RestController } from '@hickory/rest';
import { createApp } from '@hickory/app';

test('gap 5: an on_route hook rewrites Accept with request.set_header: negotiation and the handler see it', async () => {
  // What WebOb code does with environ: API clients that send no Accept get JSON.
  class JsonByDefault extends Hook {
    override on_route(state: HookState) {
      if (state.request.path.startsWith('/api/') && state.request.headers['accept'] === undefined) state.request.set_header('Accept', 'application/json');
    }
  }
  class Api {
    @expose() @expose('json') status() {
      return request.headers['accept'] === 'application/json' ? { ok: true } : 'ok';
    }
  }
  const app = createApp({ root: { api: new Api() }, hooks: [new JsonByDefault()], logger: false });
  try {
    const res = await app.inject({ url: '/api/status', headers: {} });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.body, '{"ok":true}');
    const html = await app.inject({ url: '/api/status', headers: { accept: 'text/html' } });
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(html.body, 'ok');
  } finally {
    await app.close();
  }
});

test('gap 7: override_template(null, "text/plain") drops the template and sends the string with that type', async () => {
  class Root {
    @expose('json') report(format = 'json') {
      if (format === 'txt') {
        override_template(null, 'text/plain');
        return 'chassis: 3\n';
      }
      return { chassis: 3 };
    }
    @expose('json') raw() {
      override_template(null);
      return 'as sent';
    }
  }
  const app = createApp({ root: new Root(), logger: false });
  try {
    const text = await app.inject('/report?format=txt');
    assert.equal(text.statusCode, 200);
    assert.equal(text.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(text.body, 'chassis: 3\n');
    assert.equal((await app.inject('/report')).body, '{"chassis":3}');
    // No type given: the one negotiation chose, the string as it is.
    const raw = await app.inject('/raw');
    assert.equal(raw.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(raw.body, 'as sent');
  } finally {
    await app.close();
  }
});

test('gap 7: with use_context_locals: false, a handler that declares no parameter is refused at ready(), named', async () => {
  class Root {
    @expose() index(_request: Request, _response: Response) {
      return 'home';
    }
    @expose() health() {
      return 'ok';
    }
  }
  const app = createApp({ root: new Root(), use_context_locals: false, logger: false });
  await assert.rejects(app.ready(), (error: Error & { code?: string; cause?: Error & { code?: string } }) => {
    const e = error.code === 'HICKORY_ERR_DISPATCH_EXPLICIT_HANDLER' ? error : error.cause!;
    assert.equal(e.code, 'HICKORY_ERR_DISPATCH_EXPLICIT_HANDLER');
    assert.equal(
      e.message,
      'Root.health(): with use_context_locals: false a handler receives the request and the response first, and it declares no parameter for them: declare health(request, response).',
    );
    return true;
  });
  await app.close();
});

test('gap 7: a _custom_actions entry naming no method, below a _lookup, is ignored (its segment routes as an id), never a 500', async () => {
  class Ports extends RestController {
    static override _custom_actions = { detail: ['GET'], vifs: ['GET'] };
    constructor(readonly node: string) {
      super();
    }
    @expose('json') get_one(id: string) {
      return { node: this.node, port: id };
    }
    @expose('json') detail() {
      return { node: this.node, detail: true };
    }
  }
  class Root {
    _lookup(node: string, ...rest: string[]) {
      return [new Ports(node), rest];
    }
  }
  const app = createApp({ root: new Root(), logger: false });
  try {
    assert.deepEqual((await app.inject('/n1/detail')).json(), { node: 'n1', detail: true });
    const ignored = await app.inject('/n1/vifs');
    assert.equal(ignored.statusCode, 200);
    assert.deepEqual(ignored.json(), { node: 'n1', port: 'vifs' });
  } finally {
    await app.close();
  }
  // Reached at ready(), the same class is refused there, naming the fix.
  const checked = createApp({ root: { ports: new Ports('n2') }, logger: false });
  await assert.rejects(checked.ready(), (error: Error & { code?: string; cause?: Error & { code?: string } }) => {
    assert.equal(error.code === 'HICKORY_ERR_REST_ACTION_METHOD' ? error.code : error.cause?.code, 'HICKORY_ERR_REST_ACTION_METHOD');
    return true;
  });
  await checked.close();
});

test('gap 7: an application key in a config file\'s app section (acl_public_routes) is declared and read by the plugin that uses it', async () => {
  // Ironic's AuthPublicRoutes middleware, as a plugin: its key is part of the app's configuration.
  const publicRoutes = definePlugin({
    name: 'public-routes',
    config: {
      acl_public_routes: (value) => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : 'must be a list of paths'),
    },
    apply(kernel) {
      kernel.hooks.beforeRoute.tap('public-routes', (req) => {
        const open = (kernel.config['acl_public_routes'] as readonly string[] | undefined) ?? [];
        if (!open.includes(req.path) && req.headers['x-auth-token'] === undefined) abort(401, 'Authentication required');
      });
    },
  });
  class Root {
    @expose('json') index() {
      return { versions: ['v1'] };
    }
    @expose('json') secret() {
      return { secret: true };
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'hickory-acl-'));
  try {
    await writeFile(join(dir, 'config.json'), JSON.stringify({ app: { acl_public_routes: ['/'] } }));
    const { app: config } = await loadConfig(join(dir, 'config.json'));
    const app = createApp({ ...config, root: new Root(), logger: false }).use(publicRoutes);
    try {
      assert.deepEqual((await app.inject('/')).json(), { versions: ['v1'] });
      assert.equal((await app.inject('/secret')).statusCode, 401);
      assert.deepEqual((await app.inject({ url: '/secret', headers: { 'x-auth-token': 't' } })).json(), { secret: true });
      assert.deepEqual(app.config['acl_public_routes'], ['/']);
    } finally {
      await app.close();
    }
    // Without the plugin that declares it, the key is a mistake named at ready().
    const undeclared = createApp({ ...config, root: new Root(), logger: false });
    await assert.rejects(undeclared.ready(), (error: Error & { code?: string; cause?: Error & { code?: string } }) => {
      assert.equal(error.code === 'HICKORY_ERR_CONFIG_UNKNOWN_KEY' ? error.code : error.cause?.code, 'HICKORY_ERR_CONFIG_UNKNOWN_KEY');
      assert.match(error.message + String(error.cause?.message), /acl_public_routes/);
      return true;
    });
    await undeclared.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
