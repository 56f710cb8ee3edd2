// koa 3 with @koa/router.
import { createServer } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { book, compilePage, DEEP_TEXT, HELLO, PAGE_DATA } from '../routes.ts';
import { listenPlain, type BenchServer } from './server.ts';

/** Starts the koa app on 127.0.0.1. @example const { port } = await start(); */
export async function start(): Promise<BenchServer> {
  const page = compilePage();
  const app = new Koa();
  // autocannon drops its sockets with pipelined requests in flight at the end of a run; koa would
  // print every resulting EPIPE to stderr.
  app.silent = true;
  const router = new Router();
  router.get('/hello', (ctx) => {
    ctx.body = HELLO;
  });
  router.get('/a/b/c/d/e/f/g/h', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = DEEP_TEXT;
  });
  router.get('/books/:id', (ctx) => {
    ctx.body = book(ctx.params.id!);
  });
  router.get('/page', async (ctx) => {
    ctx.type = 'html';
    ctx.body = await page({ ...PAGE_DATA });
  });
  app.use(router.routes()).use(router.allowedMethods());
  return listenPlain(createServer(app.callback()));
}
