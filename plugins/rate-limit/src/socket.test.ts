import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { createKernel } from '@hickory/core';
import { dispatchPlugin, expose } from '@hickory/dispatch';
import { rateLimitPlugin, rate_limit } from './index.ts';

// One request on its own connection (no keep-alive agent): what 100 separate clients behind one
// address would send at once.
function get(url: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end();
  });
}

class Root {
  @expose() index() {
    return 'ok';
  }
  @rate_limit({ points: 7, duration: 60 }) @expose() login() {
    return 'welcome';
  }
}

test('100 concurrent requests on real sockets: exactly `points` pass, app-wide and per handler', async () => {
  const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(rateLimitPlugin, { points: 25, duration: 60 });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const answers = await Promise.all(Array.from({ length: 100 }, () => get(`${url}/`)));
    const passed = answers.filter((answer) => answer.status === 200);
    assert.equal(passed.length, 25);
    assert.equal(answers.filter((answer) => answer.status === 429).length, 75);
    // Each allowed answer says how many were left after it: 24 … 0, once each.
    const left = passed.map((answer) => Number(/r=(\d+)/.exec(String(answer.headers['ratelimit']))![1])).sort((a, b) => a - b);
    assert.deepEqual(left, Array.from({ length: 25 }, (_, i) => i));
    assert.ok(answers.filter((answer) => answer.status === 429).every((answer) => answer.headers['retry-after'] === '60'));
  } finally {
    await app.close();
  }

  const limited = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(rateLimitPlugin);
  const server = await limited.listen({ port: 0, host: '127.0.0.1' });
  try {
    const answers = await Promise.all(Array.from({ length: 100 }, () => get(`${server.url}/login`)));
    assert.equal(answers.filter((answer) => answer.status === 200).length, 7);
    assert.equal(answers.filter((answer) => answer.status === 429).length, 93);
  } finally {
    await limited.close();
  }
});
