// docs/deployment.md's nginx configuration, run for real: Debian's nginx (TLS on a free port, the
// guide's text with only ports and certificate paths changed) in front of
// `hickory serve --workers 2` of test/fixtures/proxy; a page, an upload, keep-alive on both sides,
// and what the app believes about the client, forged headers included. Skipped where nginx is missing.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freePort, REPO, serveFixture, type Running } from './fixtures/cli/harness.ts';
import { guideConfig, machinesConfig, nginxMissing, selfSigned, startNginx, type RunningNginx } from './fixtures/proxy/nginx.ts';
import proxied from './fixtures/proxy/config.ts';
import { WebSocket } from 'ws';

const HOST = 'books.example.com';
// The client connects from another loopback address than nginx's 127.0.0.1, which is all the app trusts.
const CLIENT_ADDRESS = '127.0.0.2';
const skip = nginxMissing();

let dir = '';
let cli: Running | undefined;
let nginx: RunningNginx | undefined;
let appPort = 0;
let httpsPort = 0;
let httpPort = 0;
let ca: Buffer;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** Whether the client sent it on a connection an earlier request had used. */
  readonly reused: boolean;
}

function send(agent: Agent | undefined, path: string, options: RequestOptions = {}, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: httpsPort, path, agent, ca, servername: HOST, localAddress: CLIENT_ADDRESS, timeout: 10_000, ...options, headers: { host: HOST, ...options.headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, reused: req.reusedSocket }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

before(async () => {
  if (skip) return;
  dir = await mkdtemp(join(tmpdir(), 'hickory-nginx-'));
  const served = await serveFixture(['test/fixtures/proxy/config.ts', '--port', '0', '--workers', '2']);
  cli = served.cli;
  const { certificate, key } = await selfSigned(dir, HOST);
  ca = await readFile(certificate);
  [httpsPort, httpPort] = [await freePort(), await freePort()];
  const guide = await readFile(join(REPO, 'docs/deployment.md'), 'utf8');
  appPort = Number(new URL(served.url).port);
  const http = guideConfig(guide, { appPort, httpPort, httpsPort, certificate, key });
  nginx = await startNginx(dir, http, [httpsPort, httpPort]);
});

after(async () => {
  await nginx?.stop();
  if (cli) {
    cli.child.kill('SIGTERM');
    await cli.exited(20_000).catch(() => undefined);
    cli.stop();
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the guide holds the configuration this test runs, and the fixture its trust_proxy setting', async () => {
  const guide = await readFile(join(REPO, 'docs/deployment.md'), 'utf8');
  const http = guideConfig(guide, { appPort: 1, httpPort: 2, httpsPort: 3, certificate: '/c', key: '/k' });
  for (const line of ['proxy_http_version 1.1;', 'proxy_set_header X-Forwarded-Proto $scheme;', 'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;', 'client_max_body_size 11m;']) {
    assert.ok(http.includes(line), line);
  }
  assert.ok(guide.includes("    trust_proxy: ['127.0.0.1'],\n"), "docs/deployment.md shows trust_proxy: ['127.0.0.1']");
  assert.deepEqual(proxied.app.trust_proxy, ['127.0.0.1']);
  assert.match(guide, /hickory serve config\.ts --host 127\.0\.0\.1 --port 8080 --workers 2/);
});

test('a page through nginx, over TLS', { skip }, async () => {
  const page = await send(undefined, '/');
  assert.equal(page.status, 200, await nginx!.log());
  assert.equal(page.body, '<h1>Books</h1><p>served through nginx</p>');
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
});

test('the app sees the client: https, the Host asked for, the client address; forged headers are not believed', { skip }, async () => {
  const forged = {
    'x-forwarded-for': '6.6.6.6',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': 'evil.example',
    forwarded: 'for=6.6.6.6;proto=http;host=evil.example',
  };
  const answer = await send(undefined, '/client', { headers: forged });
  assert.equal(answer.status, 200, await nginx!.log());
  assert.deepEqual(JSON.parse(answer.body), {
    scheme: 'https',
    host: HOST,
    remote_addr: CLIENT_ADDRESS,
    host_url: `https://${HOST}`,
    environ: { url_scheme: 'https', HTTP_HOST: HOST, SERVER_PORT: '443', REMOTE_ADDR: CLIENT_ADDRESS },
  });
});

test('keep-alive: two requests on one client connection travel on one upstream connection', { skip }, async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await send(agent, '/connection');
    const second = await send(agent, '/connection');
    assert.equal(first.status, 200);
    assert.equal(second.reused, true, 'the client reused its connection to nginx');
    assert.deepEqual(JSON.parse(second.body), JSON.parse(first.body), 'the same worker and the same upstream socket');
  } finally {
    agent.destroy();
  }
});

test('an upload through nginx arrives whole: size and content reported back', { skip }, async () => {
  const content = randomBytes(300 * 1024); // past nginx's body buffer: it goes through its temporary file
  const boundary = `nginx-${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nScan\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="scan.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) };
  const answer = await send(undefined, '/upload', { method: 'POST', headers }, body);
  assert.equal(answer.status, 200, answer.body + (await nginx!.log()));
  assert.deepEqual(JSON.parse(answer.body), {
    title: 'Scan',
    filename: 'scan.bin',
    size: content.length,
    sha256: createHash('sha256').update(content).digest('hex'),
  });
});

test('a body past client_max_body_size gets 413 from nginx, before any byte of it is sent', { skip }, async () => {
  const headers = { 'content-type': 'application/octet-stream', 'content-length': String(12 * 1024 * 1024) };
  // Only the headers: nginx answers from Content-Length, and the body is never written.
  const answer = await new Promise<number>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: httpsPort, path: '/upload', method: 'POST', ca, servername: HOST, localAddress: CLIENT_ADDRESS, agent: false, timeout: 10_000, headers: { host: HOST, ...headers } },
      (res) => (res.resume(), resolve(res.statusCode ?? 0)),
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.flushHeaders();
  });
  assert.equal(answer, 413);
});

test('a WebSocket through nginx: upgraded, its origin judged on the forwarded scheme and host, echoed', { skip }, async () => {
  const connect = (origin: string) => new WebSocket(`wss://127.0.0.1:${httpsPort}/echo`, { ca, localAddress: CLIENT_ADDRESS, headers: { host: HOST }, origin, handshakeTimeout: 10_000 });
  const socket = connect(`https://${HOST}`);
  const messages: string[] = [];
  const three = new Promise<void>((resolve, reject) => {
    socket.on('message', (data: Buffer) => {
      messages.push(data.toString());
      if (messages.length === 1) socket.send('through nginx');
      if (messages.length === 2) resolve();
    });
    socket.once('error', reject);
  });
  await three;
  assert.deepEqual(messages, [`https://${HOST}`, 'through nginx']);
  socket.close(1000);
  // A page of another site: 403 from the app, passed on by nginx.
  const refused = await new Promise<number>((resolve, reject) => {
    const other = connect('https://evil.example');
    other.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      other.terminate();
    });
    other.once('open', () => reject(new Error('upgraded')));
    // Terminating a handshake that was refused reports an error of its own.
    other.on('error', () => undefined);
  });
  assert.equal(refused, 403);
});

test('the several-machines block passes WebSocket upgrades on too', { skip }, async () => {
  const machinesDir = await mkdtemp(join(tmpdir(), 'hickory-nginx-machines-'));
  const port = await freePort();
  const guide = await readFile(join(REPO, 'docs/deployment.md'), 'utf8');
  // Both "machines" are the one app: what is tested is the block's handling of an upgrade.
  const balancer = await startNginx(machinesDir, machinesConfig(guide, { appPorts: [appPort, appPort], httpPort: port }), [port]);
  try {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/echo`, { localAddress: CLIENT_ADDRESS, headers: { host: HOST }, origin: `http://${HOST}`, handshakeTimeout: 10_000 });
    const messages: string[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on('message', (data: Buffer) => {
        messages.push(data.toString());
        if (messages.length === 1) socket.send('through the balancer');
        if (messages.length === 2) resolve();
      });
      socket.once('error', reject);
    }).catch(async (error: Error) => assert.fail(`${error.message}\n${await balancer.log()}`));
    assert.deepEqual(messages, [`http://${HOST}`, 'through the balancer']);
    socket.close(1000);
  } finally {
    await balancer.stop();
    await rm(machinesDir, { recursive: true, force: true });
  }
});

test('plain HTTP is redirected to https by nginx', { skip }, async () => {
  const status = await new Promise<[number, string | undefined]>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: httpPort, path: '/client?x=1', headers: { host: HOST }, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      resolve([res.statusCode ?? 0, res.headers.location]);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end();
  });
  assert.deepEqual(status, [301, `https://${HOST}/client?x=1`]);
});
