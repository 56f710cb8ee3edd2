// What every benchmark server module gives back, and the list of frameworks.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RouteName } from '../routes.ts';

/** A framework's benchmark app, listening on 127.0.0.1. */
export interface BenchServer {
  port: number;
  /** Routes this app cannot serve yet, with the reason (shown in the output instead of a number). */
  skipped: Partial<Record<RouteName, string>>;
  close(): Promise<void>;
}

/**
 * The server modules: the frameworks, then the logging variants (`logger: true` to /dev/null).
 * What the benchmarks measure and show are the variants of these (`variants.ts`).
 */
export const FRAMEWORKS = ['hickory', 'fastify', 'node', 'express', 'koa', 'hono', 'hickory-logger', 'fastify-logger'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** How each framework is named in tables and charts. */
export const FRAMEWORK_TITLES: Readonly<Record<Framework, string>> = {
  hickory: 'hickory',
  fastify: 'fastify 5',
  node: 'node:http',
  express: 'express 5',
  koa: 'koa 3',
  hono: 'hono 4',
  'hickory-logger': 'hickory, logger: true',
  'fastify-logger': 'fastify 5, logger: true',
};

/** Each framework's module, loaded only in the child that serves it. */
export const SERVER_MODULES: Readonly<Record<Framework, () => Promise<{ start(): Promise<BenchServer> }>>> = {
  hickory: () => import('./hickory.ts'),
  fastify: () => import('./fastify.ts'),
  node: () => import('./node.ts'),
  express: () => import('./express.ts'),
  koa: () => import('./koa.ts'),
  hono: () => import('./hono.ts'),
  'hickory-logger': () => import('./hickory-logger.ts'),
  'fastify-logger': () => import('./fastify-logger.ts'),
};

/** Listens on 127.0.0.1 with a free port and wraps a plain `node:http` server. */
export async function listenPlain(server: Server): Promise<BenchServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { port: (server.address() as AddressInfo).port, skipped: {}, close: () => closeServer(server) };
}

/** Closes a server, dropping idle keep-alive sockets so that it does not wait for the client. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
