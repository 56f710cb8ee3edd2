// `hickory serve --workers 2`: two processes, a dead worker replaced, SIGTERM stops all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { get, serveFixture } from './fixtures/cli/harness.ts';

const MAX_REQUESTS = 60;

async function pidsSeen(url: string, want: (pids: Set<number>) => boolean): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < MAX_REQUESTS && !want(pids); i++) {
    try {
      const { status, body } = await get(`${url}/pid`, 5_000);
      if (status === 200) pids.add(Number(body));
    } catch {
      // a worker that was just killed may drop one connection
    }
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('hickory serve --workers 2 serves from two processes, replaces a killed one, and stops all on SIGTERM', async () => {
  const { cli, url } = await serveFixture(['test/fixtures/cli/app/config.ts', '--port', '0', '--workers', '2']);
  try {
    assert.match(cli.stdout(), /hickory serving http:\/\/127\.0\.0\.1:\d+ \(2 workers\)/);
    const first = await pidsSeen(url, (pids) => pids.size >= 2);
    assert.equal(first.size, 2, `two worker pids within ${MAX_REQUESTS} requests, saw ${[...first]}`);
    assert.ok(!first.has(cli.child.pid!), 'the primary does not serve');

    const [victim] = first;
    process.kill(victim!, 'SIGKILL');
    await cli.waitFor(new RegExp(`worker ${victim} died \\(SIGKILL\\); starting another`), 10_000, 'stderr');
    const [, started] = await cli.waitFor(/worker (\d+) serving/, 15_000, 'stdout');
    const survivor = [...first].find((pid) => pid !== victim)!;
    const later = await pidsSeen(url, (pids) => [...pids].some((pid) => !first.has(pid)));
    const replacement = [...later].find((pid) => !first.has(pid));
    assert.equal(replacement, Number(started), `the replacement answers within ${MAX_REQUESTS} requests, saw ${[...later]}`);
    assert.ok(!later.has(victim!), 'the killed worker answers no more');

    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited(15_000), 0);
    assert.match(cli.stdout(), /SIGTERM: stopping 2 workers gracefully/);
    assert.ok(!alive(survivor) && !alive(replacement), 'both workers are gone');
  } finally {
    cli.stop();
  }
});
