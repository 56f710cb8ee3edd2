// Logging across the packages: createApp with object dispatch and REST, through inject() and
// through a real socket on 127.0.0.1.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { createApp, expose, request, RestController, type PinoLike } from '@hickory/app';
import { captureLog } from './fixtures/log-capture.ts';

const GENERATED = /^[0-9a-f]{8}-[0-9a-z]+$/;

class Books extends RestController {
  @expose('json') get_one(id: string) {
    return { id };
  }
  @expose('json') post(name: string) {
    request.log.info({ name }, 'book added');
    return { name };
  }
  @expose('json') delete(_id: string): never {
    throw new Error('the shelf collapsed');
  }
}

class Root {
  books = new Books();
  @expose() index() {
    return 'home';
  }
}

// One GET over a fresh connection, with the response's headers.
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('over a socket: the exact JSON line, the id echoed, an oversized or unsafe id replaced', async () => {
  const out = captureLog();
  const app = createApp({ root: new Root(), logger: { stream: out.stream } });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const echoed = await get(`${url}/books/7?q=private`, { 'X-Request-Id': 'edge:abc.1_2-3' });
    assert.deepEqual([echoed.status, echoed.body, echoed.headers['x-request-id']], [200, '{"id":"7"}', 'edge:abc.1_2-3']);
    const generated: unknown[] = [];
    for (const bad of ['x'.repeat(129), 'two words', '"quoted"']) {
      const replaced = await get(`${url}/`, { 'X-Request-Id': bad });
      assert.match(String(replaced.headers['x-request-id']), GENERATED, bad);
      generated.push(replaced.headers['x-request-id']);
    }
    assert.equal(new Set(generated).size, 3);
    const lines = out.lines();
    assert.equal(lines.length, 4);
    const { time, responseTime, pid, hostname, ...line } = lines[0]!;
    assert.ok(Number.isInteger(time) && Math.abs(time - Date.now()) < 60_000);
    assert.ok(typeof responseTime === 'number' && responseTime > 0);
    assert.deepEqual([pid, typeof hostname], [process.pid, 'string']);
    assert.deepEqual(line, {
      level: 30,
      reqId: 'edge:abc.1_2-3',
      req: { method: 'GET', url: '/books/7', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      msg: 'request completed',
    });
    assert.deepEqual(lines.slice(1).map((l) => l['reqId']), generated);
  } finally {
    await app.close();
  }
});

test('through inject(): a failing handler is logged with the id, Controller.method and the stack; the 500 says nothing', async () => {
  const out = captureLog();
  const app = createApp({ root: new Root(), logger: { stream: out.stream } });
  const res = await app.inject({ method: 'DELETE', url: '/books/3', headers: { accept: 'application/json', 'x-request-id': 'del-3' } });
  assert.equal(res.statusCode, 500);
  assert.equal(res.headers['x-request-id'], 'del-3');
  assert.doesNotMatch(res.body, /shelf|Books|stack/);
  const [failure, completed] = out.lines();
  assert.deepEqual(
    { level: failure!['level'], reqId: failure!['reqId'], route: failure!['route'], msg: failure!['msg'], type: failure!['err'].type, message: failure!['err'].message },
    { level: 50, reqId: 'del-3', route: 'Books.delete', msg: 'DELETE /books/3 failed', type: 'Error', message: 'the shelf collapsed' },
  );
  assert.match(failure!['err'].stack, /the shelf collapsed\n\s+at _?Books\.delete/);
  assert.deepEqual([completed!['reqId'], completed!['res'].statusCode], ['del-3', 500]);
  await app.close();
});

test('request.log builds one child for a request that logs, none for the others', async () => {
  const out = captureLog();
  const app = createApp({ root: new Root(), logger: { stream: out.stream } });
  await app.ready();
  const real = app.log;
  let children = 0;
  const spy: PinoLike = {
    info: real.info.bind(real),
    warn: real.warn.bind(real),
    error: real.error.bind(real),
    debug: real.debug.bind(real),
    child(bindings) {
      children++;
      return real.child(bindings);
    },
  };
  app.logger = spy;
  for (const url of ['/', '/books/1', '/']) await app.inject(url);
  assert.equal(children, 0);
  const res = await app.inject({ method: 'POST', url: '/books/', payload: { name: 'Dune' } });
  assert.equal(children, 1);
  const added = out.lines().find((line) => line['msg'] === 'book added')!;
  assert.deepEqual([added['reqId'], added['name']], [res.headers['x-request-id'], 'Dune']);
  await app.close();
});
