import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abort, createKernel } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { hooksPlugin, RequestViewerHook, TransactionHook } from './index.ts';

class Books {
  @expose('json') show(id: string) { return { id }; }
  @expose() gone() { return abort(410); }
}
class Root { books = new Books(); }

const noTransaction = () => undefined;
const tx = () => new TransactionHook({ start: noTransaction, start_ro: noTransaction, commit: noTransaction, rollback: noTransaction, clear: noTransaction });

test('one line per request: path, status, method, controller, params, hooks, time', async () => {
  const lines: string[] = [];
  const app = createKernel({ root: new Root(), hooks: [new RequestViewerHook({ writer: (line) => void lines.push(line) }), tx()], logger: false }).use(hooksPlugin);
  await app.inject('/books/show/7?verbose=1');
  await app.inject({ method: 'POST', url: '/books/gone', payload: { reason: 'lost' } });
  await app.inject('/nowhere');
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /^path=\/books\/show\/7 status=200 method=GET controller=Books\.show params=\{"verbose":"1"\} hooks=RequestViewerHook,TransactionHook time=\d+\.\d\dms$/);
  assert.match(lines[1]!, /^path=\/books\/gone status=410 method=POST controller=Books\.gone params=\{"reason":"lost"\} hooks=RequestViewerHook,TransactionHook time=/);
  assert.match(lines[2]!, /^path=\/nowhere status=404 method=GET controller=- params=\{\} hooks=RequestViewerHook,TransactionHook time=/);
  await app.close();
});

test('items choose and order what is shown; blacklisted paths are skipped; headers: true sends X-Hickory-* headers', async () => {
  const lines: string[] = [];
  const viewer = new RequestViewerHook({ items: ['method', 'path', 'controller', 'params'], blacklist: ['/books/gone'], headers: true, writer: { write: (line: string) => lines.push(line) } });
  const app = createKernel({ root: new Root(), hooks: [viewer], logger: false }).use(hooksPlugin);
  const res = await app.inject('/books/show/caf%C3%A9?note=%C3%A9t%C3%A9');
  assert.equal(res.headers['x-hickory-method'], 'GET');
  assert.equal(res.headers['x-hickory-path'], '/books/show/caf%C3%A9');
  assert.equal(res.headers['x-hickory-controller'], 'Books.show');
  // Header values are ASCII: the rest is written as JSON escapes.
  assert.equal(res.headers['x-hickory-params'], '{"note":"\\u00e9t\\u00e9"}');
  assert.equal(res.headers['x-hickory-status'], undefined);
  await app.inject('/books/gone');
  assert.deepEqual(lines, ['method=GET path=/books/show/caf%C3%A9 controller=Books.show params={"note":"été"}\n']);
  await app.close();
});

test('without a writer, lines go to the kernel logger; writer: false with headers writes headers only', async () => {
  const info: string[] = [];
  const logger = { info: (m: string) => void info.push(m), warn() {}, error() {} };
  const app = createKernel({ root: new Root(), hooks: [new RequestViewerHook({ items: ['path', 'status'] })], logger }).use(hooksPlugin);
  await app.inject('/books/show/1');
  assert.deepEqual(info, ['path=/books/show/1 status=200']);
  await app.close();
  const quiet = createKernel({ root: new Root(), hooks: [new RequestViewerHook({ items: ['status'], writer: false, headers: true })], logger }).use(hooksPlugin);
  assert.equal((await quiet.inject('/books/show/1')).headers['x-hickory-status'], '200');
  assert.equal(info.length, 1);
  await quiet.close();
});

test('bad options fail at once', () => {
  assert.throws(() => new RequestViewerHook({ items: ['path', '_secret', 'constructor', ''] }), {
    code: 'HICKORY_ERR_HOOKS_VIEWER_OPTIONS',
    message:
      'RequestViewerHook: items must be a list of path, status, method, controller, params, hooks, time or names of request attributes (no leading _, no Object.prototype member); refused "_secret", "constructor", "".',
  });
  assert.throws(() => new RequestViewerHook({ blacklist: '/static' as unknown as string[] }), { code: 'HICKORY_ERR_HOOKS_VIEWER_OPTIONS' });
  assert.throws(() => new RequestViewerHook({ writer: 'stdout' as unknown as () => void }), { code: 'HICKORY_ERR_HOOKS_VIEWER_OPTIONS' });
});

test('any other item is an attribute of the request, as Pecan reads it (a missing one shows -)', async () => {
  const lines: string[] = [];
  class Root {
    @expose() index() { return 'home'; }
  }
  const viewer = new RequestViewerHook({ items: ['method', 'url', 'query_string', 'content_type', 'date'], writer: (line) => void lines.push(line) });
  const app = createKernel({ root: new Root(), hooks: [viewer], logger: false }).use(hooksPlugin);
  await app.inject({ url: '/?page=2', method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: '{}' });
  assert.deepEqual(lines, ['method=POST url=/?page=2 query_string=page=2 content_type=application/json date=-']);
  await app.close();
});
