// WebSockets under `hickory serve --workers 2` (test/fixtures/cli/websocket): both workers upgrade
// and echo, SIGTERM closes every socket with 1001 and the server stops; `hickory routes` marks the route.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { run, serveFixture } from './fixtures/cli/harness.ts';

const CONFIG = 'test/fixtures/cli/websocket/config.ts';

function echoOnce(url: string, text: string): Promise<{ socket: WebSocket; answer: string }> {
  const socket = new WebSocket(url, { handshakeTimeout: 5_000 });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no echo within 5 s')), 5_000);
    socket.once('open', () => socket.send(text));
    socket.once('message', (data: Buffer) => {
      clearTimeout(timer);
      resolve({ socket, answer: data.toString() });
    });
    socket.once('error', reject);
  });
}

test('hickory serve --workers 2 upgrades on both workers; SIGTERM closes the sockets with 1001', async () => {
  const { cli, url } = await serveFixture([CONFIG, '--port', '0', '--workers', '2']);
  try {
    const ws = `${url.replace(/^http/, 'ws')}/echo`;
    const opened: WebSocket[] = [];
    const pids = new Set<string>();
    // The primary hands connections to the workers in turn: a few sockets reach both.
    for (let i = 0; i < 8 && pids.size < 2; i++) {
      const { socket, answer } = await echoOnce(ws, `message ${i}`);
      const [pid, echoed] = answer.split(':');
      assert.equal(echoed, `message ${i}`);
      pids.add(pid!);
      opened.push(socket);
    }
    assert.equal(pids.size, 2, `two workers echoed, saw ${[...pids].join(', ')}`);
    assert.ok(!pids.has(String(cli.child.pid)), 'the primary does not serve');
    const codes = opened.map((socket) => new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code))));
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited(15_000), 0);
    assert.deepEqual(await Promise.all(codes), opened.map(() => 1001));
  } finally {
    cli.stop();
  }
});

test('hickory routes marks the websocket route', async () => {
  const { code, stdout } = await run(['routes', CONFIG]);
  assert.equal(code, 0);
  const line = stdout.split('\n').find((row) => row.includes('/echo'));
  assert.match(line ?? '', /\/echo\s+SocketRoot\.echo\s.*\(\)\s+websocket$/);
  const json = await run(['routes', CONFIG, '--json']);
  const routes = JSON.parse(json.stdout) as Array<{ path: string; annotations?: Record<string, unknown> }>;
  assert.deepEqual(routes.find((route) => route.path === '/echo')?.annotations, { websocket: true });
});
