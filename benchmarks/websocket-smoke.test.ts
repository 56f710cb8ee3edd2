// The servers of `npm run bench:websocket` answer a fan-out once (the benchmark itself is never part
// of `npm test`): each upgrades /fan, sends what `fan:K:SIZE` asks to every socket, and reports its memory.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

for (const framework of ['hickory', 'fastify']) {
  test(`the ${framework} websocket benchmark server fans a message out to every socket`, { timeout: 30_000 }, async () => {
    const child = fork(fileURLToPath(new URL('./servers/websocket.ts', import.meta.url)), [framework], { execArgv: ['--expose-gc', '--conditions=source', '--import', 'tsx'] });
    try {
      const { port } = await new Promise<{ port: number }>((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const sockets = await Promise.all(
        [0, 1].map(
          () =>
            new Promise<WebSocket>((resolve, reject) => {
              const socket = new WebSocket(`ws://127.0.0.1:${port}/fan`);
              socket.once('open', () => resolve(socket));
              socket.once('error', reject);
            }),
        ),
      );
      const received = sockets.map((socket) => new Promise<string[]>((resolve) => {
        const got: string[] = [];
        socket.on('message', (data: Buffer) => {
          got.push(data.toString());
          if (got.length === 2) resolve(got);
        });
      }));
      sockets[0]!.send('fan:2:3');
      assert.deepEqual(await Promise.all(received), [['xxx', 'xxx'], ['xxx', 'xxx']]);
      const memory = await new Promise<{ heapUsed: number; sockets: number }>((resolve) => {
        child.once('message', resolve);
        child.send('mem');
      });
      assert.equal(memory.sockets, 2);
      assert.ok(memory.heapUsed > 0);
      for (const socket of sockets) socket.terminate();
    } finally {
      child.kill();
    }
  });
}
