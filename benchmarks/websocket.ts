// `npm run bench:websocket`: WebSocket fan-out and memory per idle connection, Hickory's
// `@hickory/websocket` against `@fastify/websocket` in the same run (both on ws). Each server runs
// in its own process pinned to core 0 (`taskset -c 0`); this process, the clients, to core 1.
//
// - Fan-out: CLIENTS sockets on /fan; one asks for ROUNDS_MESSAGES messages of SIZE bytes to every
//   socket; messages/s = messages received by all clients / time until the last arrived. Three
//   rounds per server, interleaved; the median and the range are shown.
// - Memory: the server's heap and RSS after a full GC, before and with IDLE idle sockets open;
//   the difference divided by IDLE.
// Small and bounded (a few seconds per server); run on a quiet machine, numbers swing on a shared one.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const CLIENTS = 100;
const MESSAGES = 200;
const SIZE = 64;
const IDLE = 1_000;
const ROUNDS = 3;
const FRAMEWORKS = ['hickory', 'fastify'] as const;

interface Memory {
  rss: number;
  heapUsed: number;
  sockets: number;
}

interface Server {
  child: ChildProcess;
  port: number;
}

function startServer(framework: string): Promise<Server> {
  const child = fork(fileURLToPath(new URL('./servers/websocket.ts', import.meta.url)), [framework], {
    execArgv: ['--expose-gc', '--conditions=source', '--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  spawnSync('taskset', ['-a', '-p', '-c', '0', String(child.pid)], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${framework} server exited (${code})`)));
  });
}

function ask(server: Server): Promise<Memory> {
  return new Promise((resolve) => {
    server.child.once('message', (message: Memory) => resolve(message));
    server.child.send('mem');
  });
}

function open(port: number, count: number): Promise<WebSocket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}/fan`);
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
}

// One fan-out: every client waits for MESSAGES messages; messages/s over all of them.
async function fanOut(sockets: WebSocket[]): Promise<number> {
  const started = performance.now();
  const done = sockets.map(
    (socket) =>
      new Promise<void>((resolve, reject) => {
        let left = MESSAGES;
        const timer = setTimeout(() => reject(new Error('fan-out not received within 30 s')), 30_000);
        const onMessage = (): void => {
          if (--left > 0) return;
          clearTimeout(timer);
          socket.off('message', onMessage);
          resolve();
        };
        socket.on('message', onMessage);
      }),
  );
  sockets[0]!.send(`fan:${MESSAGES}:${SIZE}`);
  await Promise.all(done);
  return (sockets.length * MESSAGES) / ((performance.now() - started) / 1000);
}

async function closeAll(sockets: WebSocket[]): Promise<void> {
  await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => (socket.once('close', () => resolve()), socket.close()))));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
const servers = new Map<string, Server>();
for (const framework of FRAMEWORKS) servers.set(framework, await startServer(framework));
const rates = new Map<string, number[]>(FRAMEWORKS.map((f) => [f, []]));
const perSocket = new Map<string, { heap: number; rss: number }>();
try {
  // Warm-up, then interleaved rounds.
  for (const framework of FRAMEWORKS) {
    const sockets = await open(servers.get(framework)!.port, CLIENTS);
    await fanOut(sockets);
    await closeAll(sockets);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const framework of round % 2 === 0 ? FRAMEWORKS : [...FRAMEWORKS].reverse()) {
      const sockets = await open(servers.get(framework)!.port, CLIENTS);
      rates.get(framework)!.push(await fanOut(sockets));
      await closeAll(sockets);
    }
  }
  for (const framework of FRAMEWORKS) {
    const server = servers.get(framework)!;
    const before = await ask(server);
    const idle = await open(server.port, IDLE);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await ask(server);
    if (after.sockets !== IDLE) throw new Error(`${framework}: ${after.sockets} sockets open, not ${IDLE}`);
    perSocket.set(framework, { heap: (after.heapUsed - before.heapUsed) / IDLE, rss: (after.rss - before.rss) / IDLE });
    await closeAll(idle);
  }
} finally {
  for (const server of servers.values()) server.child.send('exit');
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(`WebSocket fan-out: ${CLIENTS} clients × ${MESSAGES} messages of ${SIZE} B; memory with ${IDLE} idle sockets (after a full GC)`);
console.log(`Node ${process.version}; server on core 0, clients on core 1 (taskset); ${ROUNDS} rounds, interleaved\n`);
console.log('| server | messages/s (median, range) | heap per idle socket | RSS per idle socket |');
console.log('|---|---|---|---|');
for (const framework of FRAMEWORKS) {
  const values = rates.get(framework)!;
  const memory = perSocket.get(framework)!;
  const name = framework === 'hickory' ? '`@hickory/websocket`' : '`@fastify/websocket`';
  const range = `${Math.round(Math.min(...values)).toLocaleString('en')}–${Math.round(Math.max(...values)).toLocaleString('en')}`;
  console.log(`| ${name} | ${Math.round(median(values)).toLocaleString('en')} (${range}) | ${kib(memory.heap)} | ${kib(memory.rss)} |`);
}
