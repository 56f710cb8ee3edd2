// hono 4 on @hono/node-server.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { book, compilePage, DEEP_TEXT, HELLO, PAGE_DATA } from '../routes.ts';
import { closeServer, type BenchServer } from './server.ts';

/** Starts the hono app on 127.0.0.1. @example const { port } = await start(); */
export async function start(): Promise<BenchServer> {
  const page = compilePage();
  const app = new Hono();
  app.get('/hello', (c) => c.json(HELLO));
  app.get('/a/b/c/d/e/f/g/h', (c) => c.text(DEEP_TEXT));
  app.get('/books/:id', (c) => c.json(book(c.req.param('id'))));
  app.get('/page', async (c) => c.html(await page({ ...PAGE_DATA })));
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  return { port: (server.address() as AddressInfo).port, skipped: {}, close: () => closeServer(server) };
}
