// Every benchmark app, started in its own process on 127.0.0.1 (from the sources under tsx:
// `npm run bench` runs the same files compiled, pinned with taskset and loaded by wrk, none of
// which this needs), answers every route with the exact expected body once. No timing here:
// speed lives in `npm run bench`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkRoute } from './http/check.ts';
import { loadExactly } from './http/closed-loop.ts';
import { MARK_END, MARK_START, replaceBetweenMarkers } from './report.ts';
import { expectedBodies, ROUTE_NAMES } from './routes.ts';
import { FRAMEWORKS } from './servers/server.ts';
import { startServer } from './servers/spawn.ts';
import { VARIANTS, type Variant, type VariantName } from './servers/variants.ts';
import { linearFit, median } from './stats.ts';

const expected = await expectedBodies();

// Every framework, and the Hickory variants `npm run bench` measures by default (made by
// createApp; use_context_locals: false, whose REST controller takes the request first), and those
// with response schemas (the same bodies, through compiled serializers).
const SERVERS: VariantName[] = [...FRAMEWORKS, 'hickory-app', 'hickory-explicit', 'hickory-schema', 'hickory-app-schema'];

for (const name of SERVERS) {
  test(`${name} benchmark app answers every route with the expected body`, async (t) => {
    const variant: Variant = VARIANTS[name];
    const server = await startServer(variant.framework, { preload: variant.preload });
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

test('the closed-loop load gets an answer to every request it sends, and counts the ones that are not 200', async () => {
  let seen = 0;
  const server = createServer((req, res) => {
    seen++;
    // Bodies that split status lines across chunks now and then: the counter keeps a tail.
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' }).end('x'.repeat(seen % 7));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    assert.deepEqual(await loadExactly(port, '/ok', { connections: 3, pipelining: 4, requests: 120 }), { responses: 120, notOk: 0 });
    assert.equal(seen, 120);
    // 10 requests over 3 × 4: one batch a connection, 12 in all.
    assert.deepEqual(await loadExactly(port, '/missing', { connections: 3, pipelining: 4, requests: 10 }), { responses: 12, notOk: 12 });
  } finally {
    server.close();
  }
});
