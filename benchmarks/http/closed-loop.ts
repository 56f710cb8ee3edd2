// An exact load for counting: every request sent is answered before the load ends.
import { connect, type Socket } from 'node:net';

/** The shape and size of a closed-loop load. */
export interface ClosedLoopLoad {
  connections: number;
  /** Requests written at once on a connection; the next batch goes when all are answered. */
  pipelining: number;
  /** Requests in all (each connection sends its share, rounded up to whole batches). */
  requests: number;
}

/** What came back. */
export interface ClosedLoopResult {
  /** Responses received (equal to the requests sent: the load waits for every one). */
  responses: number;
  /** Responses whose status was not 200. */
  notOk: number;
}

const STATUS_LINE = 'HTTP/1.1 ';

/**
 * Loads `GET path` on 127.0.0.1:`port` with keep-alive connections that each keep exactly
 * `pipelining` requests in flight, and resolves once every request has been answered. Unlike a
 * timed load generator, nothing is left in flight when it returns, so whatever the server counted
 * in the meantime (instructions, say) divides exactly by `responses`. Responses are counted by
 * their status lines: the routes' bodies never contain `HTTP/1.1 `.
 *
 * @example
 * ```ts
 * const { responses, notOk } = await loadExactly(port, '/hello', { connections: 100, pipelining: 10, requests: 20_000 });
 * ```
 */
export async function loadExactly(port: number, path: string, load: ClosedLoopLoad, timeoutMs = 600_000): Promise<ClosedLoopResult> {
  const batches = Math.max(1, Math.ceil(load.requests / (load.connections * load.pipelining)));
  const batch = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(load.pipelining);
  const result: ClosedLoopResult = { responses: 0, notOk: 0 };
  const sockets: Socket[] = [];
  const runs = Array.from({ length: load.connections }, () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', noDelay: true });
      sockets.push(socket);
      let sent = 0;
      let answered = 0;
      let tail = '';
      const send = (): void => {
        sent++;
        socket.write(batch);
      };
      socket.setEncoding('latin1');
      socket.once('connect', send);
      socket.on('data', (chunk: string) => {
        // Keep the last few characters: a status line may be split between two chunks.
        const text = tail + chunk;
        let at = text.indexOf(STATUS_LINE);
        while (at !== -1) {
          if (at + STATUS_LINE.length + 3 > text.length) break;
          result.responses++;
          answered++;
          if (text.slice(at + STATUS_LINE.length, at + STATUS_LINE.length + 3) !== '200') result.notOk++;
          at = text.indexOf(STATUS_LINE, at + STATUS_LINE.length);
        }
        tail = at === -1 ? text.slice(-(STATUS_LINE.length + 2)) : text.slice(at);
        if (answered === sent * load.pipelining) {
          if (sent === batches) {
            socket.end();
            resolve();
          } else send();
        }
      });
      socket.once('error', reject);
      socket.once('close', () => {
        if (answered < batches * load.pipelining) reject(new Error(`the server closed a connection after ${answered} of ${batches * load.pipelining} answers`));
      });
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the load did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.all(runs), timeout]);
  } finally {
    clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  }
  return result;
}
