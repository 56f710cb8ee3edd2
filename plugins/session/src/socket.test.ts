import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SECRET, sessionApp, setCookie } from './fixtures/app.ts';

test('over a socket, 100 concurrent requests updating 100 distinct sessions each keep their own', async () => {
  const app = sessionApp({ secret: SECRET });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const clients = Array.from({ length: 100 }, (_, i) => i);
    // One session each, made one after the other.
    const cookies: string[] = [];
    for (const i of clients) {
      const res = await fetch(`${url}/mark?value=first${i}&delay=0`);
      assert.equal(res.status, 200);
      cookies.push(setCookie(res.headers.getSetCookie(), 'sid')!.pair);
    }
    assert.equal(new Set(cookies).size, 100);
    // Then all at once, each waiting a different time inside its handler before writing.
    const answers = await Promise.all(
      clients.map(async (i) => {
        const res = await fetch(`${url}/mark?value=second${i}&delay=${(i * 7) % 30}`, { headers: { cookie: cookies[i]! } });
        return { status: res.status, body: (await res.json()) as { before: string } };
      }),
    );
    assert.deepEqual(answers, clients.map((i) => ({ status: 200, body: { before: `first${i}` } })));
    const read = await Promise.all(clients.map(async (i) => (await fetch(`${url}/read`, { headers: { cookie: cookies[i]! } })).json()));
    assert.deepEqual(read, clients.map((i) => ({ mark: `second${i}` })));
  } finally {
    await app.close();
  }
});
