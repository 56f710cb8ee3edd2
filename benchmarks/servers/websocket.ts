// The servers of `npm run bench:websocket` (benchmarks/websocket.ts), one per process, forked with
// --expose-gc and pinned to one core: `hickory` (a `@websocket()` method through dispatch) or
// `fastify` (@fastify/websocket). Both keep every socket of `/fan` in a set; a message `fan:K:SIZE`
// sends K messages of SIZE bytes to every socket there. The parent asks `mem` for the heap and RSS
// after a full GC.
import { createKernel } from '@hickory/core';
import { dispatchPlugin } from '@hickory/dispatch';
import { websocket, websocketPlugin } from '@hickory/websocket';
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import type { WebSocket } from 'ws';

const sockets = new Set<WebSocket>();

// The fan-out itself, the same for both servers.
function join(socket: WebSocket): void {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('message', (data: Buffer) => {
    const [, count, size] = data.toString().split(':');
    const payload = Buffer.alloc(Number(size), 'x');
    for (let i = 0; i < Number(count); i++) for (const each of sockets) each.send(payload);
  });
}

async function listen(framework: string): Promise<number> {
  if (framework === 'hickory') {
    class Root {
      @websocket() fan(socket: WebSocket) {
        join(socket);
      }
    }
    const app = createKernel({ root: new Root(), logger: false }).use(dispatchPlugin).use(websocketPlugin);
    return Number(new URL((await app.listen({ port: 0 })).url).port);
  }
  const app = Fastify({ logger: false });
  await app.register(fastifyWebsocket);
  app.get('/fan', { websocket: true }, (socket) => join(socket as unknown as WebSocket));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

const port = await listen(process.argv[2] ?? 'hickory');
process.on('message', (message: string) => {
  if (message === 'mem') {
    globalThis.gc?.();
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({ rss, heapUsed, sockets: sockets.size });
  } else if (message === 'exit') {
    process.exit(0);
  }
});
process.send!({ port });
