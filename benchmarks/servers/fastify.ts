// fastify 5, with response schemas on the JSON routes (as fastify's own benchmarks do).
import fastifyEtag from '@fastify/etag';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { book, compilePage, DEEP_TEXT, HELLO, PAGE_DATA } from '../routes.ts';
import type { BenchServer } from './server.ts';

const HELLO_SCHEMA = { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } };
const BOOK_SCHEMA = { response: { 200: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } } };

/** Starts the fastify app on 127.0.0.1. @example const { port } = await start(); */
export function start(): Promise<BenchServer> {
  return startFastify(false);
}

/**
 * Starts the fastify app with the given `logger` option (see `fastify-logger.ts`).
 *
 * @example
 * ```ts
 * const { port } = await startFastify({ stream: pino.destination('/dev/null') });
 * ```
 */
export async function startFastify(logger: FastifyServerOptions['logger']): Promise<BenchServer> {
  const page = compilePage();
  const app = Fastify({ logger });
  // The `fastify-etag` variant (fastify-etag.ts): ETags as Hickory sends them by default.
  if ((globalThis as { fastifyBenchEtag?: boolean }).fastifyBenchEtag === true) await app.register(fastifyEtag);
  app.get('/hello', { schema: HELLO_SCHEMA }, async () => HELLO);
  app.get('/a/b/c/d/e/f/g/h', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(DEEP_TEXT));
  app.get<{ Params: { id: string } }>('/books/:id', { schema: BOOK_SCHEMA }, async (request) => book(request.params.id));
  app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send(await page({ ...PAGE_DATA })));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { port, skipped: {}, close: () => app.close() };
}
