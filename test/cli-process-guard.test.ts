// `hickory serve` outlives what the requests' own error handling cannot catch: a rejected promise
// nobody awaited, an exception thrown from a timer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { get, serveFixture } from './fixtures/cli/harness.ts';

test('a single hickory serve process logs a forgotten rejection and an uncaught exception, and keeps serving', async () => {
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--port', '0']);
  try {
    const pid = (await get(`${url}/pid`)).body;
    assert.deepEqual(await get(`${url}/forgotten`), { status: 200, body: 'answered before the forgotten work failed' });
    await cli.waitFor(/error a promise was rejected and nothing handled it .*; still serving/, 10_000, 'stderr');
    assert.match(cli.stderr(), /a forgotten promise failed/);
    assert.deepEqual(await get(`${url}/timer`), { status: 200, body: 'answered before the timer threw' });
    await cli.waitFor(/error an exception was thrown and nothing caught it; still serving/, 10_000, 'stderr');
    assert.match(cli.stderr(), /a timer threw/);
    assert.deepEqual(await get(`${url}/`), { status: 200, body: 'hello from the cli fixture' });
    assert.equal((await get(`${url}/pid`)).body, pid, 'the same process still serves');
  } finally {
    cli.stop();
  }
});

test('hickory serve --workers 1 replaces a worker after an uncaught exception, and keeps serving forgotten rejections', async () => {
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--port', '0', '--workers', '1']);
  try {
    assert.match(cli.stdout(), /hickory serving http:\/\/127\.0\.0\.1:\d+ \(1 workers?\)/);
    const first = (await get(`${url}/pid`)).body;
    assert.notEqual(Number(first), cli.child.pid, 'a worker serves, not the supervisor');
    assert.equal((await get(`${url}/forgotten`)).status, 200);
    await cli.waitFor(/a promise was rejected and nothing handled it/, 10_000, 'stderr');
    assert.equal((await get(`${url}/pid`)).body, first, 'a forgotten rejection does not end the worker');

    assert.equal((await get(`${url}/timer`)).status, 200);
    await cli.waitFor(new RegExp(`worker ${first} died \\(exit code 1\\); starting another`), 10_000, 'stderr');
    const [, replacement] = await cli.waitFor(/worker (\d+) serving/, 15_000, 'stdout');
    assert.equal((await get(`${url}/pid`)).body, replacement);
    assert.deepEqual(await get(`${url}/`), { status: 200, body: 'hello from the cli fixture' });
  } finally {
    cli.stop();
  }
});
