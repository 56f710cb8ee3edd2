// Every benchmark app, started as the suite starts it (its own process on 127.0.0.1), answers
// every route with the exact expected body once. No timing here: speed lives in `npm run bench`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRoute } from './http/check.ts';
import { MARK_END, MARK_START, replaceBetweenMarkers } from './report.ts';
import { expectedBodies, ROUTE_NAMES } from './routes.ts';
import { FRAMEWORKS } from './servers/server.ts';
import { startServer } from './servers/spawn.ts';
import { linearFit, median } from './stats.ts';

const expected = await expectedBodies();

for (const framework of FRAMEWORKS) {
  test(`${framework} benchmark app answers every route with the expected body`, async (t) => {
    const server = await startServer(framework);
    try {
      for (const route of ROUTE_NAMES) {
        const reason = server.skipped[route];
        await t.test(route, { skip: reason ?? false }, async () => {
          assert.equal(await checkRoute(server.port, route, expected[route]), undefined);
        });
      }
    } finally {
      await server.stop();
    }
  });
}

test('the README block between the markers is replaced, the rest is kept', () => {
  const before = `# Benchmarks\n\nintro\n\n${MARK_START}\nold table\n${MARK_END}\n\nafter\n`;
  assert.equal(replaceBetweenMarkers(before, 'new table'), `# Benchmarks\n\nintro\n\n${MARK_START}\nnew table\n${MARK_END}\n\nafter\n`);
  assert.equal(replaceBetweenMarkers('# B\n', 'x'), `# B\n\n## Latest results\n\n${MARK_START}\nx\n${MARK_END}\n`);
});

test('median and the linear fit used for the slope', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.deepEqual(linearFit([[0, 5], [1, 15], [2, 25]]), { slope: 10, intercept: 5 });
});
