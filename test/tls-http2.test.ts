// TLS and HTTP/2 (issue #38, item 4): listen({ tls, http2 }) serves h2 and HTTP/1.1 (ALPN) on one
// port; under HTTP/2 the host is `:authority` (checked like Host), a body without Content-Length is
// read to its end within body_limit, request.scheme is https; close() ends the sessions.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect as http2Connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createKernel, eventStream, request, response, type Kernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { serveFixture } from './fixtures/cli/harness.ts';
import { withTimeout } from './security/harness.ts';

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl for this run. */
export function selfSigned(dir: string): { key: string; cert: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  return { key, cert };
}

interface H2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function h2(session: ClientHttp2Session, headers: Record<string, string>, body?: string | string[]): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: body === undefined });
    let text = '';
    let head: IncomingHttpHeaders = {};
    stream.setEncoding('utf8');
    stream.on('response', (received) => (head = received));
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: text }));
    stream.on('error', reject);
    if (body !== undefined) {
      // Written in parts, with no content-length: the server must read to the stream's end.
      for (const part of Array.isArray(body) ? body : [body]) stream.write(part);
      stream.end();
    }
  });
}

class Root {
  @expose('json') index() {
    return { scheme: request.scheme, host: request.host, version: request.raw.httpVersion };
  }
  @expose('json') echo(name: string) {
    return { name, length: Number(request.headers['content-length'] ?? -1) };
  }
  @expose({ content_type: 'text/event-stream' }) events() {
    response.headers['Connection'] = 'keep-alive'; // refused by HTTP/2: the kernel drops it
    return eventStream([{ data: 'one' }, { data: 'two' }], { heartbeat: 0 });
  }
}

describe('TLS and HTTP/2', () => {
  let dir: string;
  let tls: { key: string; cert: string };
  let app: Kernel;
  let url: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hickory-tls-'));
    const files = selfSigned(dir);
    tls = { key: await readFile(files.key, 'utf8'), cert: await readFile(files.cert, 'utf8') };
    app = createKernel({ root: new Root(), logger: false, body_limit: 1024, allowed_hosts: ['127.0.0.1', 'localhost'] }).use(dispatchPlugin);
    url = (await app.listen({ port: 0, host: '127.0.0.1', tls, http2: true })).url;
  });

  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('h2: https, the host from :authority, allowed_hosts applied, connection headers dropped', async () => {
    assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const session = http2Connect(url, { rejectUnauthorized: false });
    try {
      const port = new URL(url).port;
      const ok = await h2(session, { ':path': '/', ':authority': `localhost:${port}` });
      assert.equal(ok.status, 200);
      assert.deepEqual(JSON.parse(ok.body), { scheme: 'https', host: `localhost:${port}`, version: '2.0' });
      const refused = await h2(session, { ':path': '/', ':authority': 'evil.example' });
      assert.equal(refused.status, 400);
      assert.match(refused.body, /evil\.example/);
      const events = await h2(session, { ':path': '/events', accept: 'text/event-stream' });
      assert.equal(events.status, 200);
      assert.equal(events.body, 'data: one\n\ndata: two\n\n');
      assert.equal(events.headers['connection'], undefined);
    } finally {
      session.close();
    }
  });

  test('h2: a body without Content-Length is read to its end, bounded by body_limit', async () => {
    const session = http2Connect(url, { rejectUnauthorized: false });
    try {
      const read = await h2(session, { ':path': '/echo', ':method': 'POST', 'content-type': 'application/json' }, ['{"name":', '"Dune"}']);
      assert.equal(read.status, 200);
      assert.deepEqual(JSON.parse(read.body), { name: 'Dune', length: -1 });
      const tooBig = await h2(session, { ':path': '/echo', ':method': 'POST', 'content-type': 'application/json' }, [`{"name":"${'x'.repeat(800)}`, `${'y'.repeat(800)}"}`]);
      assert.equal(tooBig.status, 413);
    } finally {
      session.close();
    }
  });

  test('HTTP/1.1 over TLS on the same port (ALPN)', async () => {
    // node:https offers no h2: the server falls back to HTTP/1.1.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsRequest(`${url}/`, { rejectUnauthorized: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), { scheme: 'https', host: `127.0.0.1:${new URL(url).port}`, version: '1.1' });
  });

  test('http2 without tls is refused with a coded error; close() ends open sessions at once', async () => {
    const plain = createKernel({ root: new Root(), logger: false, close_timeout: 10_000 }).use(dispatchPlugin);
    await assert.rejects(plain.listen({ port: 0, http2: true }), (error: Error & { code?: string }) => error.code === 'HICKORY_ERR_LISTEN' && /needs tls/.test(error.message));
    await plain.close();
    const other = createKernel({ root: new Root(), logger: false, close_timeout: 10_000 }).use(dispatchPlugin);
    const { url: otherUrl } = await other.listen({ port: 0, host: '127.0.0.1', tls, http2: true });
    const session = http2Connect(otherUrl, { rejectUnauthorized: false });
    assert.equal((await h2(session, { ':path': '/' })).status, 200);
    const started = Date.now();
    await withTimeout(other.close(), 'close with an idle h2 session');
    assert.ok(Date.now() - started < 2_000, 'close did not wait for close_timeout');
    session.destroy();
  });
});

describe('hickory serve --tls-key --tls-cert --http2', () => {
  test('serves h2 with the files named, two workers included', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hickory-tls-cli-'));
    const { key, cert } = selfSigned(dir);
    const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--tls-key', key, '--tls-cert', cert, '--http2', '--workers', '2']);
    try {
      assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const session = http2Connect(url, { rejectUnauthorized: false });
      try {
        const answer = await h2(session, { ':path': '/pid' });
        assert.equal(answer.status, 200);
        assert.match(answer.body, /^\d+$/);
      } finally {
        session.close();
      }
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited(20_000).catch(() => cli.stop());
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
