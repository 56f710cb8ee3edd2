// `hickory serve`: config formats, the URL, the request log (JSON when piped, pino-pretty in a terminal), graceful shutdown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BIN, get, REPO, serveFixture } from './fixtures/cli/harness.ts';

// Piped, `hickory serve` writes pino's JSON lines on stdout: one per request, and the failure.
function jsonLines(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
}

for (const format of ['ts', 'mjs', 'js', 'json']) {
  test(`hickory serve loads a .${format} config and prints the URL it serves`, async () => {
    const { cli, url } = await serveFixture([`test/fixtures/cli/app/config.${format}`, '--port', '0']);
    try {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual(await get(`${url}/`), { status: 200, body: 'hello from the cli fixture' });
    } finally {
      cli.stop();
    }
  });
}

test('hickory serve, piped, prints a JSON line per request (reqId, req, res, responseTime) and the failure with its stack', async () => {
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--port', '0', '--host', '127.0.0.1']);
  try {
    assert.equal((await get(`${url}/?secret=1`)).status, 200);
    assert.equal((await get(`${url}/no/such/page`)).status, 404);
    assert.equal((await get(`${url}/boom`)).status, 500);
    await cli.waitFor(/"url":"\/boom".*"msg":"request completed"/, 10_000, 'stdout');
    const lines = jsonLines(cli.stdout());
    const completed = lines.filter((line) => line['msg'] === 'request completed');
    assert.deepEqual(
      completed.map((line) => [line['level'], line['req'].method, line['req'].url, line['res'].statusCode]),
      [
        [30, 'GET', '/', 200],
        [30, 'GET', '/no/such/page', 404],
        [30, 'GET', '/boom', 500],
      ],
    );
    for (const line of completed) {
      assert.match(line['reqId'], /^[0-9a-f]{8}-[0-9a-z]+$/);
      assert.equal(typeof line['responseTime'], 'number');
      assert.equal(typeof line['pid'], 'number');
    }
    const failure = lines.find((line) => line['msg'] === 'GET /boom failed')!;
    assert.equal(failure['level'], 50);
    assert.equal(failure['route'], 'CliRoot.boom');
    assert.equal(failure['reqId'], completed[2]!['reqId']);
    assert.match(failure['err'].stack, /the fixture fails on purpose\n\s+at _?CliRoot\.boom \(.*root\.ts:\d+/);
    assert.doesNotMatch(cli.stdout() + cli.stderr(), /secret/);
  } finally {
    cli.stop();
  }
});

test('hickory serve echoes a safe X-Request-Id and logs it; an unsafe one is replaced', async () => {
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.json', '--port', '0']);
  try {
    const sent = await fetch(`${url}/`, { headers: { 'x-request-id': 'trace-42.a' } });
    assert.equal(sent.headers.get('x-request-id'), 'trace-42.a');
    const unsafe = await fetch(`${url}/`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    const replaced = unsafe.headers.get('x-request-id')!;
    assert.match(replaced, /^[0-9a-f]{8}-[0-9a-z]+$/);
    await cli.waitFor(new RegExp(`"reqId":"${replaced}"`), 10_000, 'stdout');
    assert.deepEqual(
      jsonLines(cli.stdout()).map((line) => line['reqId']),
      ['trace-42.a', replaced],
    );
  } finally {
    cli.stop();
  }
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} stops hickory serve gracefully: an in-flight slow request finishes, exit code 0`, async () => {
    const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--port', '0']);
    try {
      const slow = get(`${url}/slow`);
      await cli.waitFor(/slow: started/, 10_000, 'stdout');
      cli.child.kill(signal);
      assert.deepEqual(await slow, { status: 200, body: 'slow: done' });
      assert.equal(await cli.exited(10_000), 0);
      assert.match(cli.stdout(), new RegExp(`${signal}: closing gracefully`));
      await assert.rejects(get(`${url}/`, 2_000));
    } finally {
      cli.stop();
    }
  });
}

test('--port overrides server.port of the config file', async () => {
  const first = await serveFixture(['test/fixtures/cli/app/config.json', '--port', '0']);
  const port = Number(new URL(first.url).port);
  first.cli.child.kill('SIGTERM');
  assert.equal(await first.cli.exited(10_000), 0, first.cli.stdout() + first.cli.stderr());
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.json', '--port', String(port)]);
  try {
    assert.equal(url, `http://127.0.0.1:${port}`);
    assert.equal((await get(`${url}/`)).status, 200);
  } finally {
    cli.stop();
  }
});

// util-linux's `script` gives the command a terminal, as a developer's shell does.
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));

test('hickory serve in a terminal prints the lines through pino-pretty, not as JSON', { skip: SCRIPT === undefined ? 'no `script` command to give it a terminal' : false }, async () => {
  const command = [process.execPath, BIN, 'serve', 'test/fixtures/cli/app/config.ts', '--port', '0'].map((arg) => `'${arg}'`).join(' ');
  const child = spawn(SCRIPT!, ['-qfec', command, '/dev/null'], { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  // Colours and the terminal's carriage returns out of the way.
  const plain = () => output.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');
  const waitFor = async (pattern: RegExp): Promise<RegExpMatchArray> => {
    for (let waited = 0; waited < 20_000; waited += 50) {
      const match = pattern.exec(plain());
      if (match) return match;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error(`no ${pattern} in:\n${plain()}`);
  };
  try {
    const [, url] = await waitFor(/hickory serving (http:\/\/\S+)/);
    assert.equal((await fetch(`${url}/`, { headers: { 'x-request-id': 'tty-1' } })).status, 200);
    await waitFor(/reqId: "tty-1"/);
    assert.match(plain(), /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request completed\n\s+reqId: "tty-1"/m);
    assert.doesNotMatch(plain(), /^\{"level"/m);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
