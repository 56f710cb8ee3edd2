// The line per request, the request id and request.log, in the kernel alone (no dispatch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { createKernel, definePlugin, type PinoLike } from './index.ts';
import { capture, handle, jsonLines, routes } from './fixtures/harness.ts';
import { routeOf } from './request-logging.ts';

const GENERATED = /^[0-9a-f]{8}-[0-9a-z]+$/;

test('logger: { stream } writes one "request completed" line per request, with fastify\'s field names', async () => {
  const out = jsonLines();
  const app = createKernel({ logger: { stream: out.stream } }).use(routes({ '/a': () => 'A' }));
  const res = await app.inject({ url: '/a?token=secret', headers: { 'x-request-id': 'client-7' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['x-request-id'], 'client-7');
  const [line, ...more] = out.lines();
  assert.deepEqual(more, []);
  // The exact line is checked over a socket in test/logging.test.ts; here, what the kernel adds to pino's own fields.
  assert.deepEqual(Object.keys(line!).sort(), ['hostname', 'level', 'msg', 'pid', 'req', 'reqId', 'res', 'responseTime', 'time']);
  assert.deepEqual([line!['level'], line!['msg'], line!['reqId'], line!['req'].url, line!['res'].statusCode], [30, 'request completed', 'client-7', '/a', 200]);
  assert.ok(line!['responseTime'] >= 0 && line!['responseTime'] < 5_000, String(line!['responseTime']));
  await app.close();
});

test('an id that is unsafe, joined from two headers or longer than 128 characters is replaced by a generated one', async () => {
  const out = jsonLines();
  const app = createKernel({ logger: { stream: out.stream } }).use(handle(() => 'ok'));
  for (const sent of ['a b', 'x'.repeat(129), 'é', 'a,b', '<script>', '']) {
    const res = await app.inject({ url: '/', headers: { 'x-request-id': sent } });
    assert.match(String(res.headers['x-request-id']), GENERATED, JSON.stringify(sent));
  }
  const twice = await app.inject({ url: '/', headers: { 'x-request-id': ['a', 'b'] } as never });
  assert.match(String(twice.headers['x-request-id']), GENERATED);
  const longest = 'A-z.0:9_'.repeat(16);
  assert.equal((await app.inject({ url: '/', headers: { 'x-request-id': longest } })).headers['x-request-id'], longest);
  const ids = out.lines().map((line) => line['reqId']);
  assert.equal(new Set(ids).size, ids.length, 'every request has its own id');
  await app.close();
});

test('error responses carry the id too, and a failure is logged with the id, the route and the stack; the 500 body reveals nothing', async () => {
  const out = jsonLines();
  function explode(): never {
    throw new Error('database password is hunter2');
  }
  const app = createKernel({ logger: { stream: out.stream } }).use(
    definePlugin({
      name: 'boom-or-nothing',
      apply: (kernel) => kernel.hooks.route.tap('boom-or-nothing', (request) => (request.path === '/boom' ? { target: explode, handle: explode } : undefined)),
    }),
  );
  const boom = await app.inject({ url: '/boom', headers: { 'x-request-id': 'r-500' } });
  assert.equal(boom.statusCode, 500);
  assert.equal(boom.headers['x-request-id'], 'r-500');
  assert.doesNotMatch(boom.body, /hunter2|explode/);
  const missing = await app.inject({ url: '/nothing' });
  assert.equal(missing.statusCode, 404);
  assert.match(String(missing.headers['x-request-id']), GENERATED);
  const [failure, completed, notFound] = out.lines();
  assert.equal(failure!['level'], 50);
  assert.equal(failure!['msg'], 'GET /boom failed');
  assert.equal(failure!['reqId'], 'r-500');
  assert.equal(failure!['route'], 'explode');
  assert.equal(failure!['err'].message, 'database password is hunter2');
  assert.match(failure!['err'].stack, /explode \(.*request-logging\.test\.ts/);
  assert.deepEqual([completed!['reqId'], completed!['res'].statusCode], ['r-500', 500]);
  assert.deepEqual([notFound!['res'].statusCode, notFound!['reqId']], [404, missing.headers['x-request-id']]);
  await app.close();
});

test('request.log is a child bound to the request id, built only for a request that reads it', async () => {
  const out = jsonLines();
  let children = 0;
  const app = createKernel({ logger: { stream: out.stream } }).use(
    routes({
      '/quiet': () => 'quiet',
      '/chatty': (request) => {
        request.log.info({ bookId: 7 }, 'book added');
        request.log.warn('twice');
        return 'chatty';
      },
    }),
  );
  await app.ready();
  const real = app.log;
  app.logger = {
    ...real,
    info: real.info.bind(real),
    warn: real.warn.bind(real),
    error: real.error.bind(real),
    debug: real.debug.bind(real),
    child: (bindings: Record<string, unknown>) => {
      children++;
      return real.child(bindings);
    },
  } as PinoLike;
  await app.inject({ url: '/quiet' });
  assert.equal(children, 0);
  const res = await app.inject({ url: '/chatty' });
  assert.equal(children, 1);
  const lines = out.lines().filter((line) => line['reqId'] === res.headers['x-request-id']);
  assert.deepEqual(
    lines.map((line) => [line['msg'], line['bookId']]),
    [['book added', 7], ['twice', undefined], ['request completed', undefined]],
  );
  await app.close();
});

test('logger: false, the default and a console-like logger send no X-Request-Id and write no line; request.id and request.log still work', async () => {
  for (const logger of [false, undefined, capture()] as const) {
    const app = createKernel(logger === undefined ? {} : { logger }).use(
      handle((request) => {
        request.log.info({ a: 1 }, 'handler line');
        return request.id;
      }),
    );
    const res = await app.inject({ url: '/', headers: { 'x-request-id': 'kept' } });
    assert.equal(res.body, 'kept');
    assert.equal(res.headers['x-request-id'], undefined);
    if (typeof logger === 'object') assert.deepEqual(logger.lines, [{ level: 'info', message: 'handler line', details: [{ reqId: 'kept', a: 1 }] }]);
    await app.close();
  }
});

test('an X-Request-Id the application set itself is kept', async () => {
  const out = jsonLines();
  const app = createKernel({ logger: { stream: out.stream } }).use(
    handle((_request, response) => {
      response.headers['X-Request-Id'] = 'from-the-app';
      return 'ok';
    }),
  );
  assert.equal((await app.inject({ url: '/', headers: { 'x-request-id': 'from-the-client' } })).headers['x-request-id'], 'from-the-app');
  assert.equal(out.lines()[0]!['reqId'], 'from-the-client');
  await app.close();
});

test('request_id_header names another header, or false: never read nor sent', async () => {
  const out = jsonLines();
  const custom = createKernel({ logger: { stream: out.stream }, request_id_header: 'X-Correlation-Id' }).use(handle(() => 'ok'));
  const res = await custom.inject({ url: '/', headers: { 'x-correlation-id': 'corr-1', 'x-request-id': 'other' } });
  assert.equal(res.headers['x-correlation-id'], 'corr-1');
  assert.equal(res.headers['x-request-id'], undefined);
  assert.match(res.rawPayload.toString() + JSON.stringify(res.raw.res.getHeaderNames()), /x-correlation-id/);
  const off = createKernel({ logger: { stream: out.stream }, request_id_header: false }).use(handle(() => 'ok'));
  const quiet = await off.inject({ url: '/', headers: { 'x-request-id': 'ignored' } });
  assert.equal(quiet.headers['x-request-id'], undefined);
  assert.match(out.lines().at(-1)!['reqId'], GENERATED);
  await custom.close();
  await off.close();
});

test('a streamed body is logged once it has been sent', async () => {
  const out = jsonLines();
  const streamed = createKernel({ logger: { stream: out.stream } }).use(
    handle((_request, response) => {
      response.app_iter = Readable.from(['a', 'b', 'c']);
      return undefined;
    }),
  );
  const res = await streamed.inject('/');
  assert.equal(res.body, 'abc');
  // inject() resolves when the last byte is out; the line follows once the stream has settled.
  await new Promise((done) => setImmediate(done));
  assert.deepEqual(out.lines().map((line) => line['res'].statusCode), [200]);
  await streamed.close();
});

test('a level above info writes no request line; a logger that throws never changes the response', async () => {
  const out = jsonLines();
  const warnOnly = createKernel({ logger: { stream: out.stream, level: 'warn' } }).use(handle(() => 'ok'));
  assert.equal((await warnOnly.inject('/')).statusCode, 200);
  assert.deepEqual(out.lines(), []);
  const fail = () => {
    throw new Error('disk full');
  };
  const broken = { info: fail, warn: fail, error: fail, debug: fail, child: fail };
  const app = createKernel({ logger: broken }).use(
    routes({
      '/ok': () => 'ok',
      '/reads-log': (request) => (request.log === undefined ? 'no' : 'yes'),
      '/boom': () => {
        throw new Error('x');
      },
    }),
  );
  assert.equal((await app.inject('/ok')).body, 'ok');
  assert.equal((await app.inject('/reads-log')).body, 'yes');
  assert.equal((await app.inject('/boom')).statusCode, 500);
  await warnOnly.close();
  await app.close();
});

test('routeOf names Controller.method, a function, or a string target, and nothing for the rest', () => {
  class BooksController {
    add() {}
  }
  const controller = new BooksController();
  assert.equal(routeOf({ target: controller.add, controller, handle: () => {} } as never), 'BooksController.add');
  assert.equal(routeOf({ target: function hello() {}, handle: () => {} }), 'hello');
  assert.equal(routeOf({ target: '/static/a.css', handle: () => {} }), '/static/a.css');
  assert.equal(routeOf({ target: 42, handle: () => {} }), undefined);
  assert.equal(routeOf(undefined), undefined);
  const hostile = {
    handle: () => {},
    get target(): unknown {
      throw new Error('no');
    },
  };
  assert.equal(routeOf(hostile), undefined);
});
