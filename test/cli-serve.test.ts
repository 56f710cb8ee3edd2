// `hickory serve`: config formats, the URL, the request log, graceful shutdown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { get, serveFixture } from './fixtures/cli/harness.ts';

const LOG = /^\S+ \[(\d+)\] (info|warn|error) (GET|POST) (\S+) (\d{3}) (\d+\.\d)ms$/;

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

test('hickory serve logs one line per request: 2xx as info, 4xx as warn, 5xx as error', async () => {
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--port', '0', '--host', '127.0.0.1']);
  try {
    assert.equal((await get(`${url}/?secret=1`)).status, 200);
    assert.equal((await get(`${url}/no/such/page`)).status, 404);
    assert.equal((await get(`${url}/boom`)).status, 500);
    await cli.waitFor(/error GET \/boom 500/, 10_000, 'stderr');
    const info = cli.stdout().split('\n').filter((line) => LOG.test(line));
    assert.deepEqual(info.map((line) => LOG.exec(line)!.slice(2, 6)), [['info', 'GET', '/', '200']]);
    const problems = cli.stderr().split('\n').filter((line) => LOG.test(line));
    assert.deepEqual(problems.map((line) => LOG.exec(line)!.slice(2, 6)), [
      ['warn', 'GET', '/no/such/page', '404'],
      ['error', 'GET', '/boom', '500'],
    ]);
    assert.doesNotMatch(cli.stdout() + cli.stderr(), /secret/);
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
