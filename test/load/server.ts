import { makeApp } from '../security/app.ts';

// The app under load, in its own process so that its memory is measured alone. It prints its
// port on the IPC channel and answers `rss` messages with its resident set size after a GC.

const app = makeApp();
const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: string) => {
  if (message === 'rss') {
    gc?.();
    gc?.();
    process.send?.({ rss: process.memoryUsage().rss });
  } else if (message === 'close') {
    void app.close().then(() => process.exit(0));
  }
});
process.on('uncaughtException', (error) => process.send?.({ uncaught: String(error) }));
process.on('unhandledRejection', (error) => process.send?.({ uncaught: String(error) }));
process.send?.({ url });
