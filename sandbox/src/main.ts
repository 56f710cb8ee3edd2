// Serves the sandbox app: `npm start` at the repository root (http://127.0.0.1:8080).
import { createSandbox } from './app.ts';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
// A fresh in-memory database, with the few books a fresh `npm start` shows too.
const app = await createSandbox({}, { seed: true });
const { url } = await app.listen({ port, host });
console.log(`hickory sandbox serving on ${url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`${signal}: closing`);
    void app.close().then(() => process.exit(0));
  });
}
