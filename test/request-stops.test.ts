// Issue #40's reading goal, measured by scripts/request-stops.mjs: following the request from
// dispatch's `routeRequest` gives few stops and few returns to a file already left.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const root = join(import.meta.dirname, '..');
const script = join(root, 'scripts', 'request-stops.mjs');

interface Count {
  readonly stops: readonly string[];
  readonly files: readonly string[];
  readonly returns: readonly string[];
  readonly unseen: readonly string[];
}

function count(options?: object): Count {
  const args = [script, '--json', ...(options === undefined ? [] : ['--options', JSON.stringify(options)])];
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Count;
}

test('the script counts a known shape exactly: stops, a holder, a named function type, one return', () => {
  const fixture = 'test/fixtures/request-stops';
  const found = count({ dirs: [fixture], startFile: `${fixture}/start.ts`, startName: 'start', requestFile: `${fixture}/request.ts` });
  assert.deepEqual(found.stops, [
    `${fixture}/start.ts:start`,
    `${fixture}/middle.ts:middle`,
    `${fixture}/start.ts:back`,
    `${fixture}/request.ts:Request.load`,
    `${fixture}/start.ts:viaType`,
    `${fixture}/start.ts:held`,
  ]);
  assert.equal(found.files.length, 3);
  assert.deepEqual(found.returns, [`${fixture}/middle.ts:middle → ${fixture}/start.ts:back`]);
});

test('following the request from routeRequest', async (t) => {
  const found = count();
  // Known stops on the way of every kind of request: it cannot pass by finding nothing.
  for (const stop of [
    'plugins/dispatch/src/dispatch.ts:routeRequest',
    'plugins/dispatch/src/resolve.ts:resolvePath',
    'plugins/dispatch/src/walk.ts:walk',
    'plugins/dispatch/src/guards.ts:runDueChecks',
    'plugins/dispatch/src/negotiate.ts:negotiate',
    'plugins/rest/src/rest-plan.ts:routeAtOnce',
  ]) {
    assert.ok(found.stops.includes(stop), `${stop} is a stop; found ${found.stops.join(', ')}`);
  }
  await t.test('≤ 5 returns to a file already left', () => {
    assert.ok(found.returns.length <= 5, found.returns.join('\n'));
  });
  await t.test('≤ 30 stops (issue #40)', () => {
    assert.ok(found.stops.length <= 30, `${found.stops.length} stops:\n${found.stops.join('\n')}`);
  });
});
