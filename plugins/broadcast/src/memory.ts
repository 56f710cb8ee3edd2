import { checkChannel, LocalChannels, messagesOf, type Broadcast } from './broadcast.ts';
import { broadcastError } from './errors.ts';

/**
 * A broadcast within one process: every subscriber of the channel in this process gets each
 * message (a copy made through JSON, as the PostgreSQL one delivers, so a subscriber never shares
 * an object with the publisher). For one instance; behind a balancer, use `postgresBroadcast`.
 *
 * @example
 * ```ts
 * const broadcast = memoryBroadcast();
 * broadcast.subscribe('books', (book) => console.log(book));
 * await broadcast.publish('books', { name: 'Dune' });
 * ```
 */
export function memoryBroadcast(options: { onError?: (error: unknown) => void } = {}): Broadcast {
  const local = new LocalChannels(options.onError ?? ((error) => console.error('a broadcast listener failed', error)));
  let closed = false;
  const broadcast: Broadcast = {
    publish(channel, message) {
      checkChannel(channel);
      if (closed) return Promise.reject(broadcastError('HICKORY_ERR_BROADCAST_CLOSED', `publish("${channel}")`));
      const text = JSON.stringify(message);
      if (text === undefined) return Promise.reject(broadcastError('HICKORY_ERR_BROADCAST_MESSAGE', channel, 'is not a JSON value'));
      // Delivered after publish returns, as a message from another instance would be.
      queueMicrotask(() => local.deliver(channel, JSON.parse(text)));
      return Promise.resolve();
    },
    subscribe(channel, listener) {
      checkChannel(channel);
      local.add(channel, listener);
      return () => void local.remove(channel, listener);
    },
    messages(channel, messageOptions) {
      return messagesOf(broadcast.subscribe, channel, messageOptions);
    },
    ready() {
      return Promise.resolve();
    },
    close() {
      closed = true;
      local.clear();
      return Promise.resolve();
    },
  };
  return broadcast;
}
