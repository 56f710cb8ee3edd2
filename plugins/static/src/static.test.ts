import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createKernel, definePlugin, type Kernel } from '@hickory/core';
import { staticPlugin, STATIC_ERRORS, type StaticOptions } from './index.ts';

const SECRET = 'TOP SECRET';
const CSS = 'body { color: teal; }\n';
let base: string;

before(async () => {
  base = await mkdtemp(join(tmpdir(), 'hickory-static-'));
  const pub = join(base, 'public');
  await mkdir(join(pub, 'css'), { recursive: true });
  await mkdir(join(pub, 'sub', '.hidden'), { recursive: true });
  await mkdir(join(base, 'public-sibling'));
  await writeFile(join(pub, 'index.html'), '<h1>home</h1>');
  await writeFile(join(pub, 'css', 'site.css'), CSS);
  await writeFile(join(pub, 'data.json'), '{"a":1}');
  await writeFile(join(pub, 'a b%.txt'), 'odd name');
  await writeFile(join(pub, 'digits.txt'), '0123456789');
  await writeFile(join(pub, '.secret'), SECRET);
  await writeFile(join(pub, 'sub', '.hidden', 'x.txt'), SECRET);
  await writeFile(join(base, 'secret.txt'), SECRET);
  await writeFile(join(base, 'public-sibling', 'secret.txt'), SECRET);
  await symlink(join(base, 'secret.txt'), join(pub, 'link-out.txt'));
  await symlink(join(pub, 'css', 'site.css'), join(pub, 'link-in.css'));
});

after(async () => {
  await rm(base, { recursive: true, force: true });
});

// Answers every request that reaches routing with "routed <path>".
const routeAll = definePlugin({
  name: 'test-route-all',
  apply(kernel) {
    kernel.hooks.route.tap('test-route-all', (req) => ({ target: 'all', handle: () => `routed ${req.path}` }));
  },
});

async function app(options?: StaticOptions, config: Record<string, unknown> = {}, routes = false): Promise<Kernel> {
  const kernel = createKernel({ logger: false, confdir: base, static_root: '%(confdir)s/public', ...config });
  if (routes) kernel.use(routeAll);
  return kernel.use(staticPlugin, options).ready();
}

test('GET of a file: 200, body, Content-Type, Content-Length, ETag, Last-Modified, Cache-Control, Accept-Ranges', async () => {
  const kernel = await app();
  const res = await kernel.inject('/css/site.css');
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, CSS);
  assert.equal(res.headers['content-type'], 'text/css; charset=utf-8');
  assert.equal(res.headers['content-length'], String(CSS.length));
  assert.match(String(res.headers['etag']), /^W\/".+"$/);
  assert.ok(res.headers['last-modified']);
  assert.equal(res.headers['cache-control'], 'public, max-age=0');
  assert.equal(res.headers['accept-ranges'], 'bytes');
  assert.equal((await kernel.inject('/index.html')).headers['content-type'], 'text/html; charset=utf-8');
  assert.equal((await kernel.inject('/data.json')).headers['content-type'], 'application/json; charset=utf-8');
  const odd = await kernel.inject('/a%20b%25.txt');
  assert.equal(odd.statusCode, 200);
  assert.equal(odd.body, 'odd name');
  await kernel.close();
});

test('conditional GET: If-None-Match and If-Modified-Since → 304 without a body', async () => {
  const kernel = await app();
  const first = await kernel.inject('/css/site.css');
  const etag = String(first.headers['etag']);
  const byTag = await kernel.inject({ url: '/css/site.css', headers: { 'if-none-match': etag } });
  assert.equal(byTag.statusCode, 304);
  assert.equal(byTag.body, '');
  assert.equal(byTag.headers['content-length'], undefined);
  assert.equal(byTag.headers['etag'], etag);
  const byDate = await kernel.inject({ url: '/css/site.css', headers: { 'if-modified-since': String(first.headers['last-modified']) } });
  assert.equal(byDate.statusCode, 304);
  const stale = await kernel.inject({ url: '/css/site.css', headers: { 'if-none-match': '"other"' } });
  assert.equal(stale.statusCode, 200);
  assert.equal(stale.body, CSS);
  await kernel.close();
});

test('Range: bytes=2-5 → 206 with Content-Range; unsatisfiable → 416', async () => {
  const kernel = await app();
  const part = await kernel.inject({ url: '/digits.txt', headers: { range: 'bytes=2-5' } });
  assert.equal(part.statusCode, 206);
  assert.equal(part.body, '2345');
  assert.equal(part.headers['content-range'], 'bytes 2-5/10');
  assert.equal(part.headers['content-length'], '4');
  const suffix = await kernel.inject({ url: '/digits.txt', headers: { range: 'bytes=-3' } });
  assert.equal(suffix.statusCode, 206);
  assert.equal(suffix.body, '789');
  const bad = await kernel.inject({ url: '/digits.txt', headers: { range: 'bytes=50-60' } });
  assert.equal(bad.statusCode, 416);
  assert.equal(bad.headers['content-range'], 'bytes */10');
  await kernel.close();
});

test('HEAD: the headers of a GET, no body', async () => {
  const kernel = await app();
  const res = await kernel.inject({ method: 'HEAD', url: '/digits.txt' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '');
  assert.equal(res.headers['content-length'], '10');
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  await kernel.close();
});

test('Cache-Control is configurable: maxAge, immutable, an exact value, or none', async () => {
  const cases: Array<[StaticOptions, string | undefined]> = [
    [{ maxAge: 3_600_000 }, 'public, max-age=3600'],
    [{ maxAge: '1d', immutable: true }, 'public, max-age=86400, immutable'],
    [{ cacheControl: 'no-cache' }, 'no-cache'],
    [{ cacheControl: false }, undefined],
  ];
  for (const [options, expected] of cases) {
    const kernel = await app(options);
    assert.equal((await kernel.inject('/digits.txt')).headers['cache-control'], expected, JSON.stringify(options));
    await kernel.close();
  }
});

test('files win over routing; anything that is not an existing file goes on to routing', async () => {
  const routed = await app(undefined, {}, true);
  assert.equal((await routed.inject('/digits.txt')).body, '0123456789');
  assert.equal((await routed.inject('/missing.txt')).body, 'routed /missing.txt');
  assert.equal((await routed.inject('/css')).body, 'routed /css');
  assert.equal((await routed.inject('/css/')).body, 'routed /css/');
  assert.equal((await routed.inject({ method: 'POST', url: '/digits.txt' })).body, 'routed /digits.txt');
  assert.equal((await routed.inject({ method: 'DELETE', url: '/digits.txt' })).body, 'routed /digits.txt');
  await routed.close();
  const bare = await app();
  assert.equal((await bare.inject('/missing.txt')).statusCode, 404);
  assert.equal((await bare.inject({ method: 'POST', url: '/missing.txt' })).statusCode, 404);
  await bare.close();
});

test('another method on a file that no route takes → 405 with Allow: GET, HEAD', async () => {
  const bare = await app();
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
    const res = await bare.inject({ method, url: '/digits.txt', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 405, method);
    assert.equal(res.headers.allow, 'GET, HEAD', method);
    assert.deepEqual(res.json(), { code: 405, title: 'Method Not Allowed', description: 'The method is not allowed for this resource.' });
  }
  await bare.close();
});

test('a link inside the root is served; one that leads out is not', async () => {
  const kernel = await app();
  assert.equal((await kernel.inject('/link-in.css')).body, CSS);
  const out = await kernel.inject('/link-out.txt');
  assert.equal(out.statusCode, 404);
  assert.doesNotMatch(out.body, new RegExp(SECRET));
  await kernel.close();
});

// Sent byte for byte over a socket: no client library gets to normalize the path first.
const attacks = [
  '/../secret.txt',
  '/css/../../secret.txt',
  '/%2e%2e/secret.txt',
  '/%2E%2E/secret.txt',
  '/.%2e/secret.txt',
  '/%2e%2e%2fsecret.txt',
  '/..%2fsecret.txt',
  '/..%2Fsecret.txt',
  '/css/..%2f..%2fsecret.txt',
  '/..%5csecret.txt',
  '/..\\secret.txt',
  '/css\\..\\..\\secret.txt',
  '/%252e%252e/secret.txt',
  '/secret.txt%00',
  '/digits.txt%00.html',
  '/%00/../secret.txt',
  '//etc/passwd',
  '/%2fetc%2fpasswd',
  `/${'%2e%2e%2f'.repeat(8)}etc/passwd`,
  '/../public-sibling/secret.txt',
  '/%2e%2e/public-sibling/secret.txt',
  '/..%2fpublic-sibling%2fsecret.txt',
  '/.secret',
  '/%2esecret',
  '/sub/.hidden/x.txt',
  '/sub/%2ehidden/x.txt',
  '/link-out.txt',
  '/%c0%ae%c0%ae/secret.txt',
  '/%',
];

test('path traversal in every form never leaves static_root (403, 404 or 400; never the file)', async () => {
  const kernel = await app();
  const { url } = await kernel.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(url).port);
  // The same harness does see files that are there.
  assert.match(await rawGet(port, '/digits.txt'), /^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\n0123456789$/);
  for (const path of attacks) {
    const reply = await rawGet(port, path);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1]);
    assert.ok([400, 403, 404].includes(status), `${path} → ${reply.slice(0, 40)}`);
    assert.doesNotMatch(reply, new RegExp(SECRET), path);
  }
  await kernel.close();
});

function rawGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // write(), not end(): Node's server drops a request whose client half-closes before the answer.
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy());
  });
}

test('without static_root the plugin does nothing; with { required: true } ready() says what to set', async () => {
  const kernel = await createKernel({ logger: false }).use(staticPlugin).ready();
  assert.equal((await kernel.inject('/digits.txt')).statusCode, 404);
  await kernel.close();
  await assert.rejects(createKernel({ logger: false }).use(staticPlugin, { required: true }).ready(), (error: Error & { code?: string; cause?: { code?: string } }) => {
    assert.ok([error.code, error.cause?.code].includes('HICKORY_ERR_STATIC_ROOT_MISSING'), error.message);
    return true;
  });
});

test('a static_root that is not a directory fails ready(), naming the path', async () => {
  const kernel = createKernel({ logger: false, static_root: join(base, 'nope') }).use(staticPlugin);
  await assert.rejects(kernel.ready(), (error: Error) => {
    assert.match(error.message + String((error.cause as Error | undefined)?.message), /nope/);
    return true;
  });
  const file = createKernel({ logger: false, static_root: join(base, 'secret.txt') }).use(staticPlugin);
  await assert.rejects(file.ready(), /not a directory|static_root/);
});

test('bad options fail ready() with a coded error naming the option (and the known ones)', async () => {
  const cases: Array<[object, string]> = [
    [{ maxAge: -1 }, 'staticPlugin option "maxAge" must be milliseconds (0 or more) or a duration such as "1d".'],
    [{ cacheControl: 'a\r\nb' }, 'staticPlugin option "cacheControl" must be a header value such as "no-cache", or false.'],
    [{ max_age: 1 }, 'staticPlugin option "max_age" is unknown (known: maxAge, immutable, cacheControl, etag, lastModified, required).'],
  ];
  for (const [options, message] of cases) {
    const kernel = createKernel({ logger: false }).use(staticPlugin, options as never);
    await assert.rejects(kernel.ready(), { code: 'HICKORY_ERR_STATIC_OPTION', message });
  }
});

test('STATIC_ERRORS has exactly 3 codes, each with a message', () => {
  const codes = Object.keys(STATIC_ERRORS);
  assert.equal(codes.length, 3);
  for (const code of codes) {
    assert.match(code, /^HICKORY_ERR_STATIC_[A-Z_]+$/);
    assert.ok(STATIC_ERRORS[code as keyof typeof STATIC_ERRORS].length > 0);
  }
});
