import { checkChannel, LocalChannels, messagesOf, type Broadcast } from './broadcast.ts';
import { broadcastError } from './errors.ts';

/** What {@link postgresBroadcast} uses of a node-postgres `Client` taken from the pool. */
export interface ListeningClient {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  release(error?: Error | boolean): void;
}

/** What {@link postgresBroadcast} uses of a node-postgres `Pool`. */
export interface ListeningPool {
  connect(): Promise<ListeningClient>;
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** Options of {@link postgresBroadcast}. */
export interface PostgresBroadcastOptions {
  /** Told of a listener that threw, and of a lost listening connection (it is made again). Default: `console.error`. */
  readonly onError?: (error: unknown) => void;
  /** The wait before the listening connection is made again after it was lost (doubling, up to 30 s). Default 500 ms. */
  readonly reconnectMs?: number;
}

// PostgreSQL refuses a NOTIFY payload of 8000 bytes or more.
const MAX_PAYLOAD = 7_999;

/**
 * A broadcast across every instance of the app on one PostgreSQL database: `publish` is a
 * `NOTIFY` (through the pool, inside no transaction of a request's), and each instance keeps one
 * connection of the pool that `LISTEN`s to the channels its subscribers want, delivering what
 * arrives to them — the publisher's own instance included. A lost listening connection is made
 * again (backing off) and listens again; what was published meanwhile is not replayed, so a page
 * fed by it should reload its data when its stream reconnects. A message is at most 7999 bytes of
 * JSON (PostgreSQL's limit): publish an id, and let subscribers read the rest.
 *
 * @example
 * ```ts
 * const broadcast = postgresBroadcast(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * broadcast.subscribe('books', (book) => console.log('added on some instance', book));
 * await broadcast.publish('books', { id: 7 });
 * ```
 */
export function postgresBroadcast(pool: ListeningPool, options: PostgresBroadcastOptions = {}): Broadcast {
  const failed = options.onError ?? ((error: unknown) => console.error('broadcast:', error));
  const local = new LocalChannels(failed);
  const firstWait = options.reconnectMs ?? 500;
  let wait = firstWait;
  let closed = false;
  let client: Promise<ListeningClient> | undefined;
  let retry: NodeJS.Timeout | undefined;
  // LISTEN/UNLISTEN one after another, in the order subscriptions came.
  let queue: Promise<void> = Promise.resolve();

  const connection = (): Promise<ListeningClient> =>
    (client ??= pool.connect().then((taken) => {
      taken.on('notification', ({ channel, payload }) => {
        let message: unknown;
        try {
          message = payload === undefined ? null : JSON.parse(payload);
        } catch (error) {
          return failed(error);
        }
        local.deliver(channel, message);
      });
      taken.on('error', (error) => lost(taken, error));
      wait = firstWait;
      return taken;
    }));

  const lost = (taken: ListeningClient, error: Error): void => {
    taken.release(error);
    client = undefined;
    if (closed) return;
    failed(error);
    if (local.channels().length > 0) relisten();
  };

  const relisten = (): void => {
    if (retry !== undefined || closed) return;
    retry = setTimeout(() => {
      retry = undefined;
      run(async () => {
        const taken = await connection();
        for (const channel of local.channels()) await taken.query(`LISTEN ${channel}`);
      }).catch((error: unknown) => {
        client = undefined;
        failed(error);
        wait = Math.min(wait * 2, 30_000);
        relisten();
      });
    }, wait);
    retry.unref();
  };

  const run = (step: () => Promise<void>): Promise<void> => {
    const next = queue.then(step);
    queue = next.catch(() => undefined);
    return next;
  };

  const broadcast: Broadcast = {
    async publish(channel, message) {
      checkChannel(channel);
      if (closed) throw broadcastError('HICKORY_ERR_BROADCAST_CLOSED', `publish("${channel}")`);
      const text = JSON.stringify(message);
      if (text === undefined) throw broadcastError('HICKORY_ERR_BROADCAST_MESSAGE', channel, 'is not a JSON value');
      const bytes = Buffer.byteLength(text);
      if (bytes > MAX_PAYLOAD) throw broadcastError('HICKORY_ERR_BROADCAST_MESSAGE', channel, `is ${bytes} bytes of JSON, and PostgreSQL's NOTIFY takes at most ${MAX_PAYLOAD}: publish an id, and let subscribers read the rest`);
      await pool.query('SELECT pg_notify($1, $2)', [channel, text]);
    },
    subscribe(channel, listener) {
      checkChannel(channel);
      if (closed) throw broadcastError('HICKORY_ERR_BROADCAST_CLOSED', `subscribe("${channel}")`);
      if (local.add(channel, listener)) {
        // The name is checked above: a lower-case identifier, safe to write into LISTEN.
        run(async () => void (await (await connection()).query(`LISTEN ${channel}`))).catch((error: unknown) => {
          failed(error);
          relisten();
        });
      }
      return () => {
        if (local.remove(channel, listener) && client !== undefined && !closed) {
          run(async () => void (await (await connection()).query(`UNLISTEN ${channel}`))).catch(failed);
        }
      };
    },
    messages(channel, messageOptions) {
      return messagesOf(broadcast.subscribe, channel, messageOptions);
    },
    ready() {
      return queue.then(() => (client === undefined && local.channels().length > 0 ? connection().then(() => undefined) : undefined));
    },
    async close() {
      if (closed) return;
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      local.clear();
      await queue;
      const taken = await client?.catch(() => undefined);
      client = undefined;
      if (taken === undefined) return;
      try {
        await taken.query('UNLISTEN *');
        taken.release();
      } catch (error) {
        taken.release(error as Error);
      }
    },
  };
  return broadcast;
}
