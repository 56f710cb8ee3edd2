import { makeApp } from '../security/app.ts';

// The app under load, in its own process so that its memory is measured alone. It prints its
// port on the IPC channel and answers `rss` messages, after a GC, with its resident set size and
// the memory it still holds (the V8 heap in use, and the memory of buffers and native objects).

const app = makeApp();
const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: string) => {
  if (message === 'rss') {
    gc?.();
    gc?.();
    const memory = process.memoryUsage();
    process.send?.({ rss: memory.rss, retained: memory.heapUsed + memory.external });
  } else if (message === 'close') {
    void app.close().then(() => process.exit(0));
  }
});
process.on('uncaughtException', (error) => process.send?.({ uncaught: String(error) }));
process.on('unhandledRejection', (error) => process.send?.({ uncaught: String(error) }));
process.send?.({ url });
